import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** A directory of the project tree, as scanned. */
export interface DirNode {
  name: string;
  dirs: DirNode[];
  files: string[];
  /** Files anywhere below, for collapsed folders. */
  fileCount: number;
}

/** How far a scan goes. */
export interface ScanOptions {
  /** Gitignore-style patterns ignored on top of the .gitignore files. */
  exclude: string[];
  /** Entries scanned at most (a huge tree is mapped partially). */
  maxEntries: number;
}

/** A folder's entries, sorted by name, and which of them are folders (not following symlinks). */
export interface Listing {
  names: string[];
  dirs: boolean[];
}

/** Where a scan reads folders and .gitignore files: the file system, or a cache in front of it (listing-cache.ts). */
export interface ScanSource {
  /** The listing of the folder at `path` (`rel` from the root: '' or 'a/b/'), or undefined when it cannot be read. */
  list(path: string, rel: string): Listing | undefined;
  /** The text of the folder's .gitignore when it is a readable regular file. */
  gitignore(path: string, rel: string): string | undefined;
}

/** A .gitignore's rules and where it sits, as a path prefix relative to the root ('' or 'a/b/'). */
interface Rules {
  prefix: string;
  ig: Ignore;
}

/** A folder's .gitignore text. Opened non-blocking and read only as a regular file: a FIFO named .gitignore in a cloned repository must not block the start. */
export function readGitignore(dir: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(join(dir, '.gitignore'), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A folder's entries sorted by name (UTF-16 order, as the map has always been), or undefined when it cannot be read. */
export function readListing(dir: string): Listing | undefined {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { names: entries.map((entry) => entry.name), dirs: entries.map((entry) => entry.isDirectory()) };
}

/** Reads the file system itself. */
export const fileSystem: ScanSource = { list: (path) => readListing(path), gitignore: (path) => readGitignore(path) };

/** Folders never entered, at any depth: the patterns `.git/` and `node_modules/` (ignore's matching is case-insensitive too). */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/** True when a path (relative to the root, '/'-separated) is ignored by any .gitignore from the root down to its directory. */
function ignored(rules: Rules[], rel: string, isDir: boolean, name: string): boolean {
  // Checked by name, not through ignore: a start-up with no .gitignore then runs no pattern at all.
  if (isDir && SKIPPED_FOLDERS.has(name.toLowerCase())) return true;
  for (const { prefix, ig } of rules) {
    const own = rel.slice(prefix.length);
    if (own && ig.ignores(isDir ? `${own}/` : own)) return true;
  }
  return false;
}

/**
 * Scans the project breadth first, honouring every .gitignore on the way (and never entering .git
 * or node_modules), sorted by name so the map is the same on every run. It runs at start-up, so it
 * stays cheap: paths relative to the root are built as it goes (no path.relative per entry), a
 * folder's .gitignore is read only when its listing has one, and counts are summed once at the end.
 */
export function scanProject(root: string, options: ScanOptions, source: ScanSource = fileSystem): { tree: DirNode; truncated: boolean } {
  const tree: DirNode = { name: '.', dirs: [], files: [], fileCount: 0 };
  const base: Rules[] = options.exclude.length ? [{ prefix: '', ig: ignore().add(options.exclude) }] : [];
  const queue: Array<{ node: DirNode; path: string; rel: string; rules: Rules[] }> = [{ node: tree, path: root, rel: '', rules: base }];
  let entries = 0;
  let truncated = false;
  for (let next = 0; next < queue.length; next++) {
    const { node, path, rel, rules: inherited } = queue[next]!;
    const listing = source.list(path, rel);
    if (!listing) continue;
    const text = listing.names.includes('.gitignore') ? source.gitignore(path, rel) : undefined;
    const rules = text !== undefined ? [...inherited, { prefix: rel, ig: ignore().add(text) }] : inherited;
    for (let i = 0; i < listing.names.length; i++) {
      if (entries >= options.maxEntries) {
        truncated = true;
        break;
      }
      const name = listing.names[i]!;
      const isDir = listing.dirs[i]!;
      const childRel = `${rel}${name}`;
      if (ignored(rules, childRel, isDir, name)) continue;
      entries++;
      if (isDir) {
        const child: DirNode = { name, dirs: [], files: [], fileCount: 0 };
        node.dirs.push(child);
        queue.push({ node: child, path: join(path, name), rel: `${childRel}/`, rules });
      } else node.files.push(name);
    }
    if (truncated) break;
  }
  countFiles(tree);
  return { tree, truncated };
}

/** Sets each folder's count of files anywhere below it. */
function countFiles(node: DirNode): number {
  node.fileCount = node.files.length;
  for (const dir of node.dirs) node.fileCount += countFiles(dir);
  return node.fileCount;
}
