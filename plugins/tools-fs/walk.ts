import { readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** One file or folder found by the walk. */
export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Path relative to the walk's start, with `/` separators. */
  rel: string;
  dirent: Dirent;
  /** Folder depth below the start (0 for its direct children). */
  depth: number;
}

/** Decides a path ahead of .gitignore: `include`/`exclude` win, `undefined` leaves it to the rules. */
export type Override = (rel: string, isDirectory: boolean) => 'include' | 'exclude' | undefined;

/** How to walk. */
export interface WalkOptions {
  /** The project root: .gitignore files from here down to the start apply too. */
  projectRoot: string;
  /** Folder names never entered (`.git` always). */
  skipNames?: ReadonlySet<string>;
  /** Report symlinks (not followed into): Glob lists them, Grep (like ripgrep) does not. */
  symlinks?: boolean;
  override?: Override;
  /** Also yield folders (LS). */
  directories?: boolean;
  /** Stop after this many entries. */
  limit?: number;
  maxDepth?: number;
}

/** One .gitignore's say about a path relative to the walk's start (undefined: not its business). */
type Level = (rel: string, isDirectory: boolean) => { ignored: boolean; unignored: boolean } | undefined;

function readRules(dir: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Rules of a .gitignore in the folder `base` (relative to the start) below the start. */
function levelBelow(rules: Ignore, base: string): Level {
  return (rel, isDirectory) => {
    const local = base === '' ? rel : rel.startsWith(`${base}/`) ? rel.slice(base.length + 1) : undefined;
    return local ? rules.test(isDirectory ? `${local}/` : local) : undefined;
  };
}

/** Rules of a .gitignore above the start: paths are seen from there through `prefix`. */
function levelAbove(rules: Ignore, prefix: string): Level {
  return (rel, isDirectory) => rules.test(`${prefix}/${rel}${isDirectory ? '/' : ''}`);
}

/** Whether the .gitignore files in `levels` ignore `rel` (the deepest one that has a say wins, as in git). */
function ignoredBy(levels: readonly Level[], rel: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const verdict = level(rel, isDirectory);
    if (verdict?.ignored) ignored = true;
    else if (verdict?.unignored) ignored = false;
  }
  return ignored;
}

/** The .gitignore levels from the folders between the project root and `start`. */
function ancestorLevels(projectRoot: string, start: string): Level[] {
  const rel = relative(projectRoot, start);
  if (rel === '' || rel.startsWith('..')) return [];
  const parts = rel.split(sep);
  const levels: Level[] = [];
  for (let i = 0; i < parts.length; i++) {
    const rules = readRules(join(projectRoot, ...parts.slice(0, i)));
    if (rules) levels.push(levelAbove(rules, parts.slice(i).join('/')));
  }
  return levels;
}

/**
 * Walks `start` depth-first in name order, honouring every .gitignore from the project root down
 * (as git does: deeper files override, `!` re-includes), never entering `.git`, never following
 * symlinks. Synchronous: it runs inside a worker, where blocking is cheaper than promises.
 */
export function* walk(start: string, options: WalkOptions): Generator<WalkEntry> {
  const skip = options.skipNames ?? new Set<string>();
  const ancestors = ancestorLevels(options.projectRoot, start);
  let count = 0;
  const stack: { dir: string; rel: string; depth: number; levels: Level[] }[] = [{ dir: start, rel: '', depth: 0, levels: ancestors }];
  while (stack.length) {
    const { dir, rel, depth, levels: inherited } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    // Only folders that list a .gitignore pay for reading one.
    const own = entries.some((e) => e.name === '.gitignore') ? readRules(dir) : undefined;
    const levels = own ? [...inherited, levelBelow(own, rel)] : inherited;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const prefix = dir.endsWith(sep) ? dir : dir + sep;
    const subdirs: typeof stack = [];
    for (const dirent of entries) {
      const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
      const isDirectory = dirent.isDirectory();
      if (dirent.isSymbolicLink() && !options.symlinks) continue;
      // Pipes, sockets and devices would block or never end when read; only LS shows them.
      if (!isDirectory && !dirent.isFile() && !dirent.isSymbolicLink() && !options.directories) continue;
      if (isDirectory && (dirent.name === '.git' || skip.has(dirent.name))) continue;
      const verdict = options.override?.(childRel, isDirectory);
      if (verdict === 'exclude') continue;
      if (verdict !== 'include' && ignoredBy(levels, childRel, isDirectory)) continue;
      const entry: WalkEntry = { path: prefix + dirent.name, rel: childRel, dirent, depth };
      if (isDirectory) {
        if (options.directories) {
          yield entry;
          if (options.limit && ++count >= options.limit) return;
        }
        if (options.maxDepth === undefined || depth < options.maxDepth) subdirs.push({ dir: entry.path, rel: childRel, depth: depth + 1, levels });
      } else {
        yield entry;
        if (options.limit && ++count >= options.limit) return;
      }
    }
    // Reverse so the stack pops them in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}
