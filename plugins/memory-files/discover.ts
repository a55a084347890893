import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Where a memory file comes from: the user's config dir, the project (root and parents up to the repository root), a directory the agent works in, or a folder the user added. */
export type MemoryScope = 'user' | 'project' | 'directory' | 'added';

/** One memory file as read, with the files it imports. */
export interface MemoryFile {
  path: string;
  scope: MemoryScope;
  text: string;
  /** The file that imported this one with `@path`. */
  importedBy?: string;
}

/** How memory files are read. */
export interface ReadOptions {
  importDepth: number;
  /** Imports must resolve (symlinks included) inside this directory. */
  scopeRoot: string;
  /** Asks the permission engine whether reading a path is denied. */
  denied: (path: string) => Promise<string | undefined>;
  /** Real paths already read, so a file (or a symlink to it) is read once. */
  seen: Set<string>;
  warnings: string[];
}

const MAX_FILE_BYTES = 256 * 1024;
// `@path` at the start of a line or after a space; a path-like target (an extension, or ./ ../ ~/ /) so `@types/node` or `@user` are not imports.
const IMPORT = /(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[^\s`'"<>()[\]]*[^\s`'"<>()[\].,:;!?])/g;

/** Directories from `top` down to `bottom`, outermost first; just `[bottom]` when it is not inside `top`. */
export function directoryChain(top: string, bottom: string): string[] {
  const rel = relative(top, bottom);
  if (rel.startsWith('..') || isAbsolute(rel)) return [bottom];
  const out = [top];
  let current = top;
  for (const part of rel.split(sep).filter(Boolean)) out.push((current = join(current, part)));
  return out;
}

/** The nearest ancestor of `from` (itself included) holding `.git`. */
export function repositoryRoot(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** True when `path` is `root` or inside it. */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function importTargets(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(IMPORT)) {
      const target = match[1]!;
      if (/^(~\/|\.{1,2}\/|\/)/.test(target) || /\.[A-Za-z0-9]+$/.test(target)) out.push(target);
    }
  }
  return out;
}

/** Reads a memory file and, depth first, the files it imports; each import follows the file that names it. */
export async function readMemoryFile(path: string, scope: MemoryScope, options: ReadOptions, importedBy?: string, depth = 0): Promise<MemoryFile[]> {
  let real: string;
  try {
    real = realpathSync.native(path);
    if (!statSync(real).isFile()) return [];
  } catch {
    if (importedBy) options.warnings.push(`${importedBy}: @${path} does not exist`);
    return [];
  }
  if (options.seen.has(real)) return [];
  if (importedBy && !isInside(options.scopeRoot, real)) {
    options.warnings.push(`${importedBy}: @${path} is outside ${options.scopeRoot}, so it is not imported`);
    return [];
  }
  const denial = await options.denied(real);
  if (denial) {
    options.warnings.push(`${importedBy ?? path}: not read (${denial})`);
    return [];
  }
  options.seen.add(real);
  const text = readStart(real);
  if (text === undefined) {
    options.warnings.push(`${importedBy ?? path}: not read (not a regular file)`);
    return [];
  }
  const files: MemoryFile[] = [{ path, scope, text, ...(importedBy ? { importedBy } : {}) }];
  if (depth >= options.importDepth) return files;
  for (const target of importTargets(text)) {
    const resolved = target.startsWith('~/') ? join(homedir(), target.slice(2)) : resolve(dirname(real), target);
    files.push(...(await readMemoryFile(resolved, scope, options, path, depth + 1)));
  }
  return files;
}

/**
 * The first MAX_FILE_BYTES of a regular file, trimmed; undefined for anything else. A cloned
 * repository is untrusted: a memory file that is a FIFO or links to a device must neither block the
 * start nor be read without end.
 */
function readStart(file: string): string | undefined {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_FILE_BYTES);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = readSync(fd, buffer, length, buffer.length - length, null);
    return buffer.toString('utf8', 0, length).trim();
  } finally {
    closeSync(fd);
  }
}
