/**
 * How the sandbox keeps the agent's control files (its config, `.assistant/`, `.mcp.json`, git
 * hooks and config, the user's assistant directories) out of a command's reach. A read-only bind
 * stops writes to a file that exists, and a mount point cannot be renamed or removed (EBUSY); so
 * every existing control path is bound read-only and every directory on the way to one, below the
 * writable root that holds it, is pinned (bound onto itself), so `mv .git .g && mkdir .git` fails.
 * A control path that does not exist yet cannot be bound without creating it in the user's tree:
 * control-guard.ts notices it appearing and removes it after the command.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative } from 'node:path';

/** A control path as the sandbox sees it (plain data: it also crosses to the worker). */
export type ControlEntry = {
  path: string;
  why: string;
  dir: boolean;
  /** Not a control file yet: it becomes one by gaining this key (package.json and `assistant`). Watched, not bound. */
  whileKey?: string;
};

export interface ControlMounts {
  /** Directories bound onto themselves, shallowest first: they can no longer be renamed. */
  pinned: string[];
  /** Existing control paths (symlinks resolved), bound read-only. */
  readOnly: string[];
}

const inside = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const kind = (path: string) => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

const real = (path: string) => {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
};

/**
 * The mounts that protect `controls` when `writable` roots (real paths) are writable. Paths under
 * `hidden` stay hidden (a bind would show them again); a control folder holding the project itself
 * (a project kept in the data directory) is left writable, or the project would be read-only.
 */
export function controlMounts(controls: readonly ControlEntry[], writable: readonly string[], projectRoot: string, hidden: readonly string[]): ControlMounts {
  const pinned = new Set<string>();
  const readOnly = new Set<string>();
  const roots = new Set(writable);
  for (const control of controls) {
    if (control.whileKey) continue; // the project's own package.json stays writable (npm install) until it steers the agent
    // Resolve the folder part only: the last component is judged as it is (a symlink, a file, missing).
    const parent = real(dirname(control.path));
    if (!parent) continue; // no folder on the way exists: nothing to bind, the guard watches for it
    const path = `${parent}/${control.path.slice(dirname(control.path).length + 1)}`;
    if (!writable.some((w) => inside(path, w))) continue; // not writable in the sandbox at all
    if (hidden.some((h) => inside(path, h))) continue;
    // Every writable folder on the way becomes a mount point, up to the top: renaming the project's
    // parent (with `writable: ["~"]`) and rebuilding the path must fail as surely as renaming `.git`.
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
      if (roots.has(dir) || !writable.some((w) => inside(dir, w)) || hidden.some((h) => inside(dir, h))) continue;
      const stat = kind(dir);
      if (stat?.isDirectory()) pinned.add(dir);
      // A file where a folder is expected (`.git` of a worktree names the real git folder) steers too.
      else if (stat) readOnly.add(dir);
    }
    const stat = kind(path);
    if (!stat) continue;
    const target = stat.isSymbolicLink() ? real(path) : path;
    if (!target || !writable.some((w) => inside(target, w))) continue;
    if (inside(projectRoot, target)) continue;
    readOnly.add(target);
  }
  const depth = (p: string) => p.split('/').length;
  return { pinned: [...pinned].sort((a, b) => depth(a) - depth(b)), readOnly: [...readOnly].sort((a, b) => depth(a) - depth(b)) };
}

/**
 * The same protection as a list of paths for a profile that judges by path (macOS Seatbelt): every
 * control path under a writable root, existing or not (a denial by path also stops its creation),
 * and every folder on the way to one as the single path (so it cannot be renamed).
 */
export function controlDenials(controls: readonly ControlEntry[], writable: readonly string[]): Array<{ path: string; dir: boolean }> {
  const out = new Map<string, boolean>();
  const roots = new Set(writable);
  for (const control of controls) {
    if (control.whileKey) continue;
    const parent = real(dirname(control.path)) ?? dirname(control.path);
    const path = `${parent}/${control.path.slice(dirname(control.path).length + 1)}`;
    if (!writable.some((w) => inside(path, w))) continue;
    out.set(path, out.get(path) || control.dir);
    for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) if (!roots.has(dir) && writable.some((w) => inside(dir, w)) && !out.has(dir)) out.set(dir, false);
  }
  return [...out].map(([path, dir]) => ({ path, dir }));
}
