import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../core/kernel/errors.js';

/** The commented starter written by `assistant config init` (YAML; every key is optional). */
export const STARTER_CONFIG = `# assistant configuration for this project. Every key is optional; see docs/configuration.md.
# Layers, lowest first: built-in defaults < ~/.config/assistant/config.* < this file < command-line flags.

# Share settings with other projects: a path or an installed package.
# extends: ./shared/assistant-preset.yaml

# Which model to talk to. Keys come from the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY).
provider:
  name: anthropic          # or: openai (also for Ollama, LM Studio, vLLM via baseURL)
  # model: claude-sonnet-4-6   # the default
  # baseURL: http://localhost:11434/v1   # a local OpenAI-compatible server needs no key

# What the agent may do without asking.
permissions:
  mode: default            # default | acceptEdits | plan (read-only) | bypass
  # allow: ["Bash(npm test)", "Bash(npm run lint:*)", "Edit(src/**)"]
  # ask:   ["Bash(git push:*)"]
  # deny:  ["Read(secrets/**)"]

# How the conversation is kept inside the model's window.
# context:
#   strategy: compaction   # compaction | rolling | static

# Where sessions are stored.
# persistence:
#   store: jsonl           # jsonl (local files) | redis (teams: see docs/sessions.md)
#   record: false          # true (or --record): keep what assistant replay needs

# Loop limits.
# limits:
#   maxTurns: 100

# Extra plugins: npm packages installed in this project, or relative paths.
# Disable a built-in with [name, false]; configure one with [name, { ...options }].
# plugins:
#   - assistant-plugin-example
#   - ["./tools/my-plugin.js", { "someOption": true }]
`;

/** Writes the starter `.assistantrc` into `dir` (refusing to overwrite one unless `force`); returns its path. */
export function writeStarterConfig(dir: string, force = false): string {
  const file = join(resolve(dir), '.assistantrc');
  if (existsSync(file) && !force) throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `${file} already exists; pass --force to overwrite it`, { file });
  try {
    writeFileSync(file, STARTER_CONFIG, { flag: 'w' });
  } catch (cause) {
    throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `cannot write ${file}: ${(cause as Error).message}`, { file, cause });
  }
  return file;
}
