import type { DirNode } from './scan.js';

/** Entries listed per folder before the rest is counted. */
const MAX_LISTED = 30;

/** The tree as indented lines, expanding folders `depth` levels deep; deeper folders show a file count. */
export function renderTree(tree: DirNode, depth: number): string[] {
  const lines: string[] = [];
  const walk = (node: DirNode, level: number, indent: string) => {
    const entries = [...node.dirs.map((d) => ({ dir: d })), ...node.files.map((f) => ({ file: f }))];
    for (const [i, entry] of entries.entries()) {
      if (i === MAX_LISTED) {
        lines.push(`${indent}... ${entries.length - MAX_LISTED} more`);
        break;
      }
      if ('file' in entry) lines.push(`${indent}${entry.file}`);
      else if (level < depth && entry.dir.dirs.length + entry.dir.files.length) {
        lines.push(`${indent}${entry.dir.name}/`);
        walk(entry.dir, level + 1, indent + '  ');
      } else lines.push(`${indent}${entry.dir.name}/ (${entry.dir.fileCount} files)`);
    }
  };
  walk(tree, 1, '');
  return lines;
}

/** The deepest rendering that fits `maxTokens` (by `count`); a top level that does not fit is cut. */
export function renderWithin(tree: DirNode, maxTokens: number, count: (text: string) => number): { text: string; depth: number } {
  let best: string[] | undefined;
  let depth = 0;
  // Each depth is rendered once: the look-ahead that stops at the full tree is the next round's rendering.
  let lines = renderTree(tree, 1);
  for (let d = 1; d <= 64; d++) {
    if (count(lines.join('\n')) > maxTokens) break;
    best = lines;
    depth = d;
    lines = renderTree(tree, d + 1);
    if (best.length && lines.length === best.length) break;
  }
  if (!best) {
    const top = renderTree(tree, 1);
    best = [];
    for (const line of top) {
      if (count([...best, line].join('\n')) > maxTokens) break;
      best.push(line);
    }
    best.push(`... (${top.length - best.length} more entries)`);
    depth = 1;
  }
  return { text: best.join('\n'), depth };
}
