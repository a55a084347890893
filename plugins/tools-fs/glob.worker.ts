import { lstatSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import picomatch from 'picomatch';
import { displayPath, errorResult, resolveToolPath, textResult, type ToolResult, type WorkerContext, type WorkerTask } from '../../core/index.js';
import { statOrUndefined } from './file-io.js';
import { walk } from './walk.js';

/** Most paths returned; the model is told to narrow the pattern past it. */
export const MAX_GLOB_RESULTS = 100;
/** Folders Glob and LS never descend into unless the pattern or path names them. */
export const DEPENDENCY_FOLDERS: ReadonlySet<string> = new Set(['node_modules']);

/** Splits a pattern into the folder to walk (its fixed prefix) and the part to match below it. */
function splitPattern(pattern: string, base: string, projectRoot: string): { root: string; glob: string } {
  const scan = picomatch.scan(pattern.replace(/\\/g, '/'));
  const fixed = scan.isGlob ? scan.base : '';
  const glob = scan.isGlob ? scan.glob : pattern.replace(/\\/g, '/');
  if (isAbsolute(pattern)) return { root: resolveToolPath(fixed || '/', projectRoot, 'pattern'), glob };
  return { root: fixed ? resolveToolPath(join(base, fixed), projectRoot, 'pattern') : base, glob };
}

/** Glob: files matching a pattern (`**` for any depth), newest first, .gitignore honoured. */
export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  const input = task.input as { pattern: string; path?: string };
  const base = input.path === undefined ? task.projectRoot : resolveToolPath(input.path, task.projectRoot, 'path');
  const baseStats = statOrUndefined(base);
  if (!baseStats?.isDirectory()) return errorResult('ASSISTANT_TOOL_FAILED', `${displayPath(base, task.projectRoot)} is not a directory. Give a folder as path.`);
  const { root, glob } = splitPattern(input.pattern, base, task.projectRoot);
  const isMatch = picomatch(glob, { dot: true });
  const skipNames = input.pattern.includes('node_modules') ? new Set<string>() : DEPENDENCY_FOLDERS;
  const found: { path: string; mtime: number }[] = [];
  let seen = 0;
  if (statOrUndefined(root)?.isDirectory()) {
    for (const entry of walk(root, { projectRoot: task.projectRoot, skipNames, symlinks: true })) {
      if (++seen % 2048 === 0 && context.signal.aborted) return errorResult('ASSISTANT_TOOL_ABORTED', 'Glob was cancelled.');
      if (!isMatch(entry.rel)) continue;
      let mtime = 0;
      try {
        mtime = statSync(entry.path).mtimeMs;
      } catch {
        mtime = lstatSync(entry.path).mtimeMs;
      }
      found.push({ path: entry.path, mtime });
    }
  }
  if (!found.length) return textResult(`No files found matching ${input.pattern} in ${displayPath(base, task.projectRoot)}.`, { files: 0 });
  found.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
  const shown = found.slice(0, MAX_GLOB_RESULTS).map((f) => displayPath(f.path, task.projectRoot));
  const more = found.length - shown.length;
  const note = more > 0 ? `\n(${more} more not shown: narrow the pattern or the path.)` : '';
  return textResult(`Found ${found.length} file${found.length === 1 ? '' : 's'} (newest first):\n${shown.join('\n')}${note}`, { files: found.length });
}
