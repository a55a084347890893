import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

/** True when `path` is `root` or inside it (both already real, absolute paths). */
export function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended (a file not created yet); undefined when none resolves. */
export function realTarget(path: string): string | undefined {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    try {
      return join(realpathSync.native(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return undefined;
      rest.push(basename(at));
    }
  }
}

/**
 * The project-relative key (with `/`) a written path is recorded under: symlinks resolved, so a
 * file reached through a link is saved under its real name. Undefined when it lies outside the project.
 */
export function projectKey(root: string, path: string): string | undefined {
  const real = realTarget(path);
  if (!real || !inside(root, real) || real === root) return undefined;
  return relative(root, real).split(sep).join('/');
}

/**
 * Where a key is restored, refusing (with the reason) anything that would leave the project: a
 * key that climbs out, a folder on the way that is a symlink leading elsewhere, or the file itself
 * a symlink (a restore never replaces a link or writes through one).
 */
export function restoreTarget(root: string, key: string): { path: string } | { refused: string } {
  if (!key || isAbsolute(key) || key.split('/').some((part) => part === '..' || part === '' || part === '.')) return { refused: `${key} is not a path inside the project` };
  const path = join(root, ...key.split('/'));
  const parent = realTarget(dirname(path));
  if (!parent || !inside(root, parent)) return { refused: `${key}: a folder on its path leads outside the project` };
  try {
    if (lstatSync(path).isSymbolicLink()) return { refused: `${key} is now a symbolic link` };
  } catch {
    // Absent: restored by creating it.
  }
  return { path };
}
