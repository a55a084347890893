import { lstatSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { realPath, type PermissionDecision, type PermissionRequest } from '../../core/index.js';

/** What `assistant init` lets its run write without asking: a new AGENTS.md, or (with --force) over the existing one. */
export type InitWrite = 'create' | 'overwrite';

/** Is `target` now what `kind` expects: absent for `create`; for `overwrite`, a plain file (no symlink, no second hard link)? */
function targetAsExpected(target: string, kind: InitWrite): boolean {
  try {
    const stats = lstatSync(target);
    return kind === 'overwrite' && stats.isFile() && stats.nlink === 1;
  } catch (error) {
    return kind === 'create' && (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * The one call `assistant init` allows on its own (headless, no one to ask): the main agent's Write
 * of exactly `<project root>/AGENTS.md`, which is a memory file the policy otherwise leaves to a
 * person. Anything else abstains, so the policy judges it as usual; plan mode still refuses, and
 * the guard and deny rules, which run earlier, still win.
 */
export function initWriteDecision(request: PermissionRequest, target: string, kind: InitWrite): PermissionDecision | undefined {
  if (request.tool !== 'Write' || request.agentId || request.mode === 'plan' || request.unbounded || request.paths.length !== 1) return undefined;
  const path = resolve(request.cwd, request.paths[0]!);
  if (path !== target || realPath(dirname(path)) !== realPath(dirname(target)) || !targetAsExpected(target, kind)) return undefined;
  const what = kind === 'create' ? 'creates' : 'rewrites (--force)';
  return { behavior: 'allow', layer: 'project-init', reason: `assistant init ${what} the project's AGENTS.md, as the user asked` };
}
