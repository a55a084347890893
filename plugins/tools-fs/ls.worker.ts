import picomatch from 'picomatch';
import { displayPath, errorResult, escapeDeceptive, resolveToolPath, textResult, type ToolResult, type WorkerContext, type WorkerTask } from '../../core/kits/tool/index.js';
import { refusedResult } from './checked-write.js';
import { statOrUndefined } from './file-io.js';
import { boundaryFor, isRefusal } from './fs-guard.js';
import { EntryGuard } from './search-guard.js';
import { DEPENDENCY_FOLDERS } from './glob.worker.js';
import { walk } from './walk.js';

/** Most entries listed; past it the model is told to list a subfolder. */
export const MAX_LS_ENTRIES = 1000;

interface Node {
  name: string;
  isDirectory: boolean;
  children: Node[];
}

function render(nodes: Node[], indent: string, out: string[]): void {
  nodes.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const node of nodes) {
    out.push(`${indent}- ${escapeDeceptive(node.name)}${node.isDirectory ? '/' : ''}`);
    render(node.children, `${indent}  `, out);
  }
}

/** LS: the tree under a folder, .gitignore honoured, minus the `ignore` globs. */
export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  const input = task.input as { path?: string; ignore?: string[] };
  const dir = resolveToolPath(input.path ?? '.', task.projectRoot, 'path');
  const shown = escapeDeceptive(displayPath(dir, task.projectRoot));
  const stats = statOrUndefined(dir);
  if (!stats) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} does not exist.`);
  if (!stats.isDirectory()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a file, not a directory. Use Read to see it.`);
  const checked = EntryGuard.root(dir, shown, boundaryFor(input.path, dir, task));
  if (isRefusal(checked)) return refusedResult(checked, 'listed');
  const ignored = input.ignore?.length ? picomatch(input.ignore, { dot: true }) : undefined;
  const override = ignored ? (rel: string) => (ignored(rel) || ignored(rel.slice(rel.lastIndexOf('/') + 1)) ? ('exclude' as const) : undefined) : undefined;
  const byPath = new Map<string, Node>();
  const top: Node[] = [];
  let count = 0;
  for (const entry of walk(dir, { projectRoot: task.projectRoot, skipNames: DEPENDENCY_FOLDERS, symlinks: true, directories: true, override, limit: MAX_LS_ENTRIES + 1 })) {
    if (context.signal.aborted) return errorResult('ASSISTANT_TOOL_ABORTED', 'LS was cancelled.');
    if (++count > MAX_LS_ENTRIES) break;
    const node: Node = { name: entry.dirent.name, isDirectory: entry.dirent.isDirectory(), children: [] };
    byPath.set(entry.rel, node);
    const parent = entry.rel.includes('/') ? byPath.get(entry.rel.slice(0, entry.rel.lastIndexOf('/'))) : undefined;
    (parent ? parent.children : top).push(node);
  }
  const out = [`${shown === '.' ? dir : shown}/`];
  render(top, '  ', out);
  if (count > MAX_LS_ENTRIES) out.push(`(cut at ${MAX_LS_ENTRIES} entries: list a subfolder, or use Glob to find specific files.)`);
  if (!top.length) out.push('  (empty)');
  return textResult(out.join('\n'), { entries: Math.min(count, MAX_LS_ENTRIES) });
}
