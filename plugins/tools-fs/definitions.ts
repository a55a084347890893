import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { globReach } from './patterns.js';
import { INPUT_LIMITS } from './limits.js';
import { escapeDeceptive, type LockSet, type ToolContext, type ToolDefinition, type JsonSchema } from '../../core/index.js';

type Input = Record<string, unknown>;

/** The file URL of a worker module beside this file. */
const worker = (file: string) => new URL(`./${file}`, import.meta.url).href;


const path = (description: string) => ({ type: 'string', minLength: 1, maxLength: INPUT_LIMITS.path, description });
const lines = (description: string) => ({ type: 'integer', minimum: 0, maximum: INPUT_LIMITS.lines, description });
const filePath = path('The file to use: absolute, or relative to the project root.');

function object(properties: Record<string, unknown>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * The one declaration of what a call touches: its lock set, keys as the model gave them (the
 * scheduler resolves them; the permission engine judges them). A missing value with no fallback
 * names nothing; a malformed one is passed on as given, so the policy's path guard refuses it
 * instead of judging a call that names no path (and the scheduler locks everything).
 */
const given = (input: Input, field: string, fallback?: string): string[] => {
  const value = input[field] ?? fallback;
  return value === undefined ? [] : [asPath(value)];
};
/** A file name that would read as another kind of lock key (`@name`, `*`) is written as the relative path it is. */
const asPath = (value: unknown): string => (typeof value === 'string' && (value === '*' || value.startsWith('@')) ? `./${value}` : (value as string));
const reads = (field: string, fallback?: string) => (input: Input): LockSet => ({ reads: given(input, field, fallback), writes: [] });
const writes = (field: string) => (input: Input): LockSet => ({ reads: [], writes: given(input, field) });
/** The call's key argument for the UI line and the approval, control and bidi characters escaped so it reads as it is. */
const text = (field: string) => (input: Input) => escapeDeceptive(String(input[field] ?? ''));

/** Files a Read takes on the main thread (ToolDefinition.inline): a thread hop costs more than reading them. */
const INLINE_READ_BYTES = 32 * 1024;
/** Whether the file is a regular one that small (the path as the worker resolves it: from the project root). */
const smallFile = (field: string) => (input: Input, context: ToolContext): boolean => {
  const raw = input[field];
  if (typeof raw !== 'string') return false;
  const stats = statSync(isAbsolute(raw) ? raw : resolve(context.projectRoot, raw), { throwIfNoEntry: false });
  return stats !== undefined && stats.isFile() && stats.size <= INLINE_READ_BYTES;
};

/**
 * A search reads its folder and the fixed prefix of each pattern that selects files (Glob's
 * pattern, Grep's include globs): `src/**` reaches src, `../../**` and `/etc/*` reach out,
 * `~/.ssh/*` the home folder (which the lock table takes as everything). Excludes (`!x`) reach nothing.
 */
const searchReads = (patternField: string, split: boolean) => (input: Input): LockSet => {
  const folder = input.path ?? '.';
  const paths = [asPath(folder)];
  const value = input[patternField];
  const patterns = typeof value === 'string' ? (split ? value.split(/\s+/).filter(Boolean) : [value]) : [];
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    const reach = globReach(pattern, typeof folder === 'string' ? folder : '.');
    if (reach) paths.push(asPath(reach));
  }
  return { reads: paths, writes: [] };
};

const edit = {
  old_string: { type: 'string', description: 'The exact text to replace (copy it from Read output, without the line-number prefix).' },
  new_string: { type: 'string', description: 'The text to put in its place.' },
  replace_all: { type: 'boolean', default: false, description: 'Replace every occurrence instead of exactly one.' },
};

/** The tools-fs tools, without their main-thread `prepare`/`settle` (the plugin adds those). */
export function fsTools(grepBackend: string): ToolDefinition<Input>[] {
  return [
    {
      name: 'Read',
      description: readFileSync(new URL('./read.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object(
        {
          file_path: filePath,
          offset: { type: 'integer', minimum: 1, maximum: 1e9, description: 'First line to show (1-based). Use it with limit for long files.' },
          limit: { type: 'integer', minimum: 1, maximum: 1e9, description: 'How many lines to show (default 2000).' },
        },
        ['file_path'],
      ),
      access: reads('file_path'),
      risk: { category: 'read' },
      module: worker('read.worker.js'),
      inline: smallFile('file_path'),
      timeoutMs: 30_000,
      summarize: text('file_path'),
    },
    {
      name: 'Write',
      description: readFileSync(new URL('./write.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object({ file_path: filePath, content: { type: 'string', description: 'The whole new content of the file.' } }, ['file_path', 'content']),
      access: writes('file_path'),
      risk: { category: 'edit' },
      module: worker('write.worker.js'),
      timeoutMs: 60_000,
      summarize: text('file_path'),
    },
    {
      name: 'Edit',
      description: readFileSync(new URL('./edit.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object({ file_path: filePath, ...edit }, ['file_path', 'old_string', 'new_string']),
      access: writes('file_path'),
      risk: { category: 'edit' },
      module: worker('edit.worker.js'),
      timeoutMs: 60_000,
      summarize: text('file_path'),
    },
    {
      name: 'MultiEdit',
      description: readFileSync(new URL('./multi-edit.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object(
        {
          file_path: filePath,
          edits: { type: 'array', minItems: 1, maxItems: INPUT_LIMITS.items, items: object(edit, ['old_string', 'new_string']), description: 'Edits applied in order; all succeed or none is made.' },
        },
        ['file_path', 'edits'],
      ),
      access: writes('file_path'),
      risk: { category: 'edit' },
      module: worker('edit.worker.js'),
      export: 'runMulti',
      timeoutMs: 60_000,
      summarize: text('file_path'),
    },
    {
      name: 'Glob',
      description: readFileSync(new URL('./glob.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object(
        {
          pattern: { type: 'string', minLength: 1, maxLength: INPUT_LIMITS.pattern, description: 'Glob pattern, e.g. "**/*.ts" or "src/**/test_*.py".' },
          path: path('Folder to search in (default: the project root).'),
        },
        ['pattern'],
      ),
      access: searchReads('pattern', false),
      risk: { category: 'read' },
      module: worker('glob.worker.js'),
      timeoutMs: 60_000,
      cache: { max: 200, ttlMs: 30_000 },
      summarize: text('pattern'),
    },
    {
      name: 'Grep',
      description: readFileSync(new URL('./grep.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object(
        {
          pattern: { type: 'string', minLength: 1, maxLength: INPUT_LIMITS.pattern, description: 'Regular expression to search for.' },
          path: path('File or folder to search (default: the project root).'),
          glob: { type: 'string', maxLength: INPUT_LIMITS.pattern, description: 'Only files matching this glob, e.g. "*.js" or "*.{ts,tsx}"; "!glob" excludes.' },
          type: { type: 'string', maxLength: 64, description: 'Only files of this type, e.g. js, ts, py, rust, go, java, md.' },
          output_mode: { enum: ['content', 'files_with_matches', 'count'], default: 'files_with_matches', description: 'content: matching lines; files_with_matches: file paths; count: matches per file.' },
          '-i': { type: 'boolean', description: 'Case-insensitive.' },
          '-n': { type: 'boolean', description: 'Show line numbers (content mode; default true).' },
          '-A': lines('Lines of context after each match (content mode).'),
          '-B': lines('Lines of context before each match (content mode).'),
          '-C': lines('Lines of context before and after each match (content mode).'),
          head_limit: { type: 'integer', minimum: 1, maximum: INPUT_LIMITS.lines, description: 'Show only the first N lines or entries.' },
        },
        ['pattern'],
      ),
      access: searchReads('glob', true),
      risk: { category: 'read' },
      module: worker('grep.worker.js'),
      options: { backend: grepBackend },
      timeoutMs: 120_000,
      cache: { max: 100, ttlMs: 60_000 },
      summarize: text('pattern'),
    },
    {
      name: 'LS',
      description: readFileSync(new URL('./ls.txt', import.meta.url), 'utf8').trim(),
      inputSchema: object(
        {
          path: path('Folder to list (default: the project root).'),
          ignore: { type: 'array', maxItems: INPUT_LIMITS.items, items: { type: 'string', minLength: 1, maxLength: INPUT_LIMITS.pattern }, description: 'Glob patterns of names or paths to leave out.' },
        },
        [],
      ),
      access: reads('path', '.'),
      risk: { category: 'read' },
      module: worker('ls.worker.js'),
      timeoutMs: 30_000,
      summarize: text('path'),
    },
  ];
}
