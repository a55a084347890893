import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { ConfigError } from '../../core/index.js';
import { writeFileAtomic } from '../../core/kits/fs/index.js';
import { spliceServers } from './yaml-splice.js';

/** A change to a file's `mcpServers` object: returns false to leave the file as it was. */
export type ServersEdit = (servers: Record<string, unknown> | undefined) => Record<string, unknown> | undefined | false;

type Format = 'json' | 'yaml' | 'package';

function formatOf(file: string, text: string | undefined): Format {
  const name = basename(file);
  if (name === 'package.json') return 'package';
  const ext = extname(name).toLowerCase();
  if (['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].includes(ext))
    throw new ConfigError(
      'ASSISTANT_CONFIG_WRITE_FAILED',
      `${file} is JavaScript, which assistant does not rewrite; edit its mcpServers by hand (or use a .assistantrc JSON/YAML file)`,
      { file, plugin: 'mcp' },
    );
  if (ext === '.json') return 'json';
  if (ext === '.yaml' || ext === '.yml') return 'yaml';
  // `.assistantrc` may hold either: JSON is tried first, since it is also YAML.
  if (text === undefined) return 'json';
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    return 'yaml';
  }
}

const indentOf = (text: string) => /^[ \t]+(?=\S)/m.exec(text)?.[0] ?? '  ';

function parseFailure(file: string, message: string, cause?: unknown): ConfigError {
  return new ConfigError('ASSISTANT_CONFIG_PARSE', `${file}: cannot be parsed (${message}); fix it first, nothing was changed`, { file, plugin: 'mcp', cause });
}

function editJson(file: string, text: string | undefined, inPackage: boolean, edit: ServersEdit): string | undefined {
  let data: Record<string, unknown>;
  try {
    data = text === undefined || !text.trim() ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch (error) {
    throw parseFailure(file, (error as Error).message, error);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw parseFailure(file, 'it is not a JSON object');
  const holder = inPackage ? ((data.assistant ??= {}) as Record<string, unknown>) : data;
  const next = edit(holder.mcpServers as Record<string, unknown> | undefined);
  if (next === false) return undefined;
  if (next === undefined || !Object.keys(next).length) delete holder.mcpServers;
  else holder.mcpServers = next;
  return JSON.stringify(data, null, text ? indentOf(text) : 2) + '\n';
}

/**
 * Changes the `mcpServers` of a project config file safely: the file is parsed (JSON, YAML with
 * its comments kept, or package.json's `assistant` key), changed, and replaced atomically with
 * its mode kept (YAML is edited by splicing the changed entries' lines, so the rest stays as written). A file that does not exist yet is created as JSON. JavaScript files are refused.
 * Returns whether the file changed.
 */
export async function editServers(file: string, edit: ServersEdit): Promise<boolean> {
  let text: string | undefined;
  let mode = 0o644;
  try {
    text = await readFile(file, 'utf8');
    mode = (await stat(file)).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `cannot read ${file}: ${(error as Error).message}`, { file, plugin: 'mcp', cause: error });
  }
  const format = formatOf(file, text);
  const next = format === 'yaml' ? await spliceServers(text ?? '', edit, (message) => parseFailure(file, message)) : editJson(file, text, format === 'package', edit);
  if (next === undefined) return false;
  try {
    await writeFileAtomic(file, next, { mode });
  } catch (error) {
    throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `cannot write ${file}: ${(error as Error).message}`, { file, plugin: 'mcp', cause: error });
  }
  return true;
}

/** The project config file `mcp add` writes to: the one in use, else a new `.assistantrc` at the project root. */
export function projectConfigFile(projectFile: string | undefined, projectRoot: string): string {
  return projectFile ?? join(projectRoot, '.assistantrc');
}
