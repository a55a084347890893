import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

interface Rules {
  base: string;
  ig: Ignore;
}

function gitignoreAt(dir: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(join(dir, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** True when a path is ignored by any .gitignore from the root down to its directory. */
function ignored(rules: Rules[], path: string, isDir: boolean): boolean {
  for (const { base, ig } of rules) {
    const rel = relative(base, path).split('\\').join('/');
    if (rel && ig.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

/**
 * Scans the project breadth first, honouring every .gitignore on the way (and never entering .git
 * or node_modules), sorted by name so the map is the same on every run.
 */
export function scanProject(root: string, options: ScanOptions): { tree: DirNode; truncated: boolean } {
  const tree: DirNode = { name: '.', dirs: [], files: [], fileCount: 0 };
  const base: Rules = { base: root, ig: ignore().add(['.git/', 'node_modules/', ...options.exclude]) };
  const queue: Array<{ node: DirNode; path: string; rules: Rules[]; parents: DirNode[] }> = [{ node: tree, path: root, rules: [base], parents: [] }];
  let entries = 0;
  let truncated = false;
  while (queue.length) {
    const { node, path, rules: inherited, parents } = queue.shift()!;
    const own = gitignoreAt(path);
    const rules = own ? [...inherited, { base: path, ig: own }] : inherited;
    let list;
    try {
      list = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      continue;
    }
    for (const entry of list) {
      if (entries >= options.maxEntries) {
        truncated = true;
        break;
      }
      const full = join(path, entry.name);
      const isDir = entry.isDirectory();
      if (ignored(rules, full, isDir)) continue;
      entries++;
      if (isDir) {
        const child: DirNode = { name: entry.name, dirs: [], files: [], fileCount: 0 };
        node.dirs.push(child);
        queue.push({ node: child, path: full, rules, parents: [...parents, node] });
      } else {
        node.files.push(entry.name);
        for (const n of [...parents, node]) n.fileCount++;
      }
    }
  }
  return { tree, truncated };
}
