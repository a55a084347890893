import { definePlugin, realPath, type ToolContext } from '../../core/index.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './limits.js';
import { readFileSync } from 'node:fs';

/** Options of the tool-bash plugin. */
export interface ToolBashOptions {
  /** The shell to run commands in (default: bash, Git Bash on Windows, else the user's POSIX shell). */
  shell?: string;
  /** More environment variables to remove from commands' environment (provider keys always are). */
  scrubEnv?: string[];
  /** Characters of output kept per command, head and tail (default 30000). */
  maxOutputChars?: number;
}

/** A little longer than the command's own limit, so the worker reports the timeout itself (with output). */
const RUNTIME_MARGIN_MS = 5_000;

export default definePlugin<ToolBashOptions>({
  name: 'tool-bash',
  optionsSchema: {
    type: 'object',
    properties: {
      shell: { type: 'string', minLength: 1 },
      scrubEnv: { type: 'array', items: { type: 'string', minLength: 1 } },
      maxOutputChars: { type: 'integer', minimum: 1000 },
    },
    additionalProperties: false,
  },
  apply(kernel, options) {
    // The shell's working directory per session and agent: kept here, handed to each command.
    const cwds = new Map<string, string>();
    const key = (context: ToolContext) => `${context.sessionId ?? ''}\0${context.agentId ?? ''}`;
    const limit = (input: Record<string, unknown>) => Math.min(typeof input.timeout === 'number' ? input.timeout : DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS);
    kernel.tools.register({
      name: 'Bash',
      description: readFileSync(new URL('./bash.txt', import.meta.url), 'utf8').trim(),
      inputSchema: {
        type: 'object',
        properties: {
          command: { type: 'string', minLength: 1, description: 'The command to run.' },
          timeout: { type: 'integer', minimum: 1, maximum: MAX_TIMEOUT_MS, description: 'Time limit in milliseconds (default 120000, max 600000).' },
          description: { type: 'string', description: 'What the command does, in 5-10 words.' },
        },
        required: ['command'],
        additionalProperties: false,
      },
      // Any command may touch anything; a policy plugin that proves a command read-only says so through the lockSet hook.
      access: () => ({ reads: [], writes: ['*'] }),
      // Passed on as given: the policy refuses a command that is not a string.
      risk: { category: 'execute', command: (input) => input.command as string | undefined },
      module: new URL('./bash.worker.js', import.meta.url).href,
      options: {
        ...(options.shell ? { shell: options.shell } : {}),
        scrubEnv: options.scrubEnv ?? [],
        ...(options.maxOutputChars ? { maxOutputChars: options.maxOutputChars } : {}),
      },
      timeoutMs: (input) => limit(input) + RUNTIME_MARGIN_MS,
      summarize: (input) => String(input.description ?? input.command ?? ''),
      prepare: (_input, context) => ({ state: { cwd: cwds.get(key(context)) ?? realPath(kernel.cwd) } }),
      settle: (result, _input, context) => {
        const cwd = result.metadata?.cwd;
        if (typeof cwd === 'string') cwds.set(key(context), cwd);
      },
    });
  },
});
