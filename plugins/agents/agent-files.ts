import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { ConfigError, schemaProblems } from '../../core/index.js';
import { AGENT_NAME, agentTypeSchema, type AgentType, type AgentTypeFields } from './agent-type.js';
import { AGENTS_ERRORS } from './errors.js';

// The YAML parser is loaded when an agent file is parsed, not by every start (most projects have none).
const requireHere = createRequire(import.meta.url);
const parseYaml = (text: string): unknown => (requireHere('yaml') as typeof import('yaml')).parse(text);

/** The agent types of one directory, and what was wrong with the files that were skipped. */
export interface AgentDirectory {
  types: AgentType[];
  problems: ConfigError[];
  /** Front matter keys that were ignored (e.g. `color` from another tool's files), per file. */
  ignored: string[];
}

const FIELDS = new Set<string>(['name', 'description', 'tools', 'model', 'permissionMode', 'maxTurns', 'maxTokens', 'maxCostUsd']);
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const invalid = (file: string, what: string) =>
  new ConfigError(AGENTS_ERRORS.ASSISTANT_AGENT_DEFINITION_INVALID, `agent file ${file}: ${what}; the file was skipped`, { file });

/**
 * Reads one agent file: YAML front matter (`name`, `description`, `tools`, `model`, `permissionMode`,
 * `maxTurns`, `maxTokens`, `maxCostUsd`) and the body as the prompt. `tools` may be a list or a
 * comma-separated string. Throws a coded error naming the file and what is wrong.
 */
export function parseAgentFile(text: string, file: string): { type: AgentType; ignored: string[] } {
  const source = text.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(source);
  if (!match) throw invalid(file, 'it does not start with front matter (a `---` line, `description: ...`, a `---` line)');
  let raw: unknown;
  try {
    raw = parseYaml(match[1]!);
  } catch (error) {
    throw invalid(file, `the front matter is not valid YAML (${((error as Error).message ?? String(error)).split('\n')[0]})`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(file, 'the front matter is not a set of `key: value` lines');
  const entries = Object.entries(raw as Record<string, unknown>);
  const ignored = entries.map(([key]) => key).filter((key) => !FIELDS.has(key));
  const fields = Object.fromEntries(entries.filter(([key]) => FIELDS.has(key) && key !== 'name'));
  if (typeof fields.tools === 'string')
    fields.tools = fields.tools
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  const prompt = source.slice(match[0].length).trim();
  if (!prompt) throw invalid(file, 'the body after the front matter (the prompt) is empty');
  fields.prompt = prompt;
  const problems = schemaProblems(agentTypeSchema(['description', 'prompt']), fields);
  if (problems.length) throw invalid(file, problems.map((p) => `front matter ${p.replace(/^\/: /, '')}`).join('; '));
  const name = (raw as { name?: unknown }).name ?? basename(file).replace(/\.md$/i, '');
  if (typeof name !== 'string' || !AGENT_NAME.test(name))
    throw invalid(file, `the name ${JSON.stringify(name)} is not a valid agent name (letters, digits, - and _, up to 48 characters)`);
  return { type: { ...(fields as AgentTypeFields), name, description: fields.description as string, prompt, source: file }, ignored };
}

/** Reads every `*.md` file of a directory (sorted, so the order is stable); a missing directory has none. */
export async function readAgentDirectory(dir: string): Promise<AgentDirectory> {
  const found: AgentDirectory = { types: [], problems: [], ignored: [] };
  let names: string[];
  try {
    // Listed synchronously: a folder read once per start, usually absent.
    names = readdirSync(dir, { withFileTypes: true }).filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.toLowerCase().endsWith('.md')).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return found;
    found.problems.push(new ConfigError(AGENTS_ERRORS.ASSISTANT_AGENT_DEFINITION_INVALID, `cannot read the agent directory ${dir}: ${(error as Error).message}`, { file: dir }));
    return found;
  }
  for (const name of names.sort()) {
    const file = join(dir, name);
    try {
      const { type, ignored } = parseAgentFile(await readFile(file, 'utf8'), file);
      found.types.push(type);
      if (ignored.length) found.ignored.push(`${file}: ${ignored.join(', ')}`);
    } catch (error) {
      found.problems.push(error instanceof ConfigError ? error : invalid(file, `it cannot be read (${(error as Error).message})`));
    }
  }
  return found;
}
