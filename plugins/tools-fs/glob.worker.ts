import { lstatSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { displayPath, errorResult, escapeDeceptive, isInside, resolveToolPath, textResult, type ToolResult, type WorkerContext, type WorkerTask } from '../../core/kits/tool/index.js';
import { refusedResult } from './checked-write.js';
import { statOrUndefined } from './file-io.js';
import { boundaryFor, isRefusal, Withheld, type Boundary } from './fs-guard.js';
import { climbsOut, expandHome, splitGlob } from './patterns.js';
import { EntryGuard } from './search-guard.js';
import { walk } from './walk.js';

/** Most paths returned; the model is told to narrow the pattern past it. */
export const MAX_GLOB_RESULTS = 100;
/** Folders Glob and LS never descend into unless the pattern or path names them. */
export const DEPENDENCY_FOLDERS: ReadonlySet<string> = new Set(['node_modules']);

/** The folder to walk (the pattern's fixed prefix, below `path`) and the boundary it is checked against. */
function anchor(pattern: string, base: string, baseBoundary: Boundary, task: WorkerTask): { root: string; glob: string; boundary: Boundary } | string {
  const { base: fixed, glob } = splitGlob(pattern);
  if (climbsOut(glob)) return `the pattern's wildcard part may not contain "..": put the folder in path, or in the pattern's fixed prefix`;
  if (!fixed) return { root: base, glob, boundary: baseBoundary };
  const expanded = expandHome(fixed);
  if (expanded === undefined) return `"${fixed}": only ~/ is expanded (not ~user)`;
  const lexical = isAbsolute(expanded) ? expanded : join(base, expanded);
  const root = resolveToolPath(lexical, task.projectRoot, 'pattern');
  // The prefix is judged like a path of its own: inside the project, or exactly the folder the policy saw.
  const boundary = isInside(baseBoundary.root, task.projectRoot) && isInside(resolve(lexical), task.projectRoot) ? baseBoundary : { ...baseBoundary, root };
  return { root, glob, boundary };
}

/** Glob: files matching a pattern (`**` for any depth), newest first, .gitignore honoured. */
export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  const input = task.input as { pattern: string; path?: string };
  const base = input.path === undefined ? task.projectRoot : resolveToolPath(input.path, task.projectRoot, 'path');
  const baseShown = escapeDeceptive(displayPath(base, task.projectRoot));
  const baseStats = statOrUndefined(base);
  if (!baseStats?.isDirectory()) return errorResult('ASSISTANT_TOOL_FAILED', `${baseShown} is not a directory. Give a folder as path.`);
  const baseBoundary = boundaryFor(input.path, base, task);
  const anchored = anchor(input.pattern, input.path === undefined ? task.projectRoot : isAbsolute(input.path) ? input.path : join(task.projectRoot, input.path), baseBoundary, task);
  if (typeof anchored === 'string') return errorResult('ASSISTANT_TOOL_INPUT_INVALID', `Glob: ${anchored}.`);
  const { root, glob, boundary } = anchored;
  const isMatch = picomatch(glob, { dot: true });
  const skipNames = input.pattern.includes('node_modules') ? new Set<string>() : DEPENDENCY_FOLDERS;
  const found: { path: string; mtime: number }[] = [];
  const withheld = new Withheld();
  let seen = 0;
  if (statOrUndefined(root)?.isDirectory()) {
    const checkedRoot = EntryGuard.root(root, escapeDeceptive(displayPath(root, task.projectRoot)), boundary);
    if (isRefusal(checkedRoot)) return refusedResult(checkedRoot, 'searched');
    const guard = new EntryGuard(boundary);
    for (const entry of walk(root, { projectRoot: task.projectRoot, skipNames, symlinks: true })) {
      if (++seen % 2048 === 0 && context.signal.aborted) return errorResult('ASSISTANT_TOOL_ABORTED', 'Glob was cancelled.');
      if (!isMatch(entry.rel)) continue;
      const refusal = guard.check(entry.path, entry.dirent.isSymbolicLink());
      if (refusal) {
        withheld.add(refusal.kind);
        continue;
      }
      let mtime = 0;
      try {
        mtime = statSync(entry.path).mtimeMs;
      } catch {
        try {
          mtime = lstatSync(entry.path).mtimeMs;
        } catch {
          continue;
        }
      }
      found.push({ path: entry.path, mtime });
    }
  }
  const note = withheld.total ? `\n${withheld.note()}` : '';
  const meta = { files: found.length, withheld: withheld.toJson() };
  if (!found.length) return textResult(`No files found matching ${escapeDeceptive(input.pattern)} in ${baseShown}.${note}`, meta);
  found.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
  const shown = found.slice(0, MAX_GLOB_RESULTS).map((f) => escapeDeceptive(displayPath(f.path, task.projectRoot)));
  const more = found.length - shown.length;
  const moreNote = more > 0 ? `\n(${more} more not shown: narrow the pattern or the path.)` : '';
  return textResult(`Found ${found.length} file${found.length === 1 ? '' : 's'} (newest first):\n${shown.join('\n')}${moreNote}${note}`, meta);
}
