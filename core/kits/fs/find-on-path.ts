import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Executable by this user (the mode bits alone ignore ownership). */
function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the shell finds a bare command name on PATH, as a real path (links followed); undefined when
 * nowhere, or on Windows, whose lookup adds PATHEXT. The first executable regular file wins, as for
 * bash. Relative and empty entries count only with `cwd` (they resolve against it, as for execvp);
 * without it they are skipped, as the Bash tool drops them from its commands' PATH.
 */
export function findOnPath(name: string, options: { path?: string; cwd?: string } = {}): string | undefined {
  if (process.platform === 'win32' || !name || name.includes('/')) return undefined;
  for (const dir of (options.path ?? process.env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir) && options.cwd === undefined) continue;
    const candidate = join(options.cwd === undefined ? dir : resolve(options.cwd, dir), name);
    try {
      // Most entries lack the name: no exception for those (throwing costs most of a lookup).
      const stats = statSync(candidate, { throwIfNoEntry: false });
      if (!stats?.isFile() || (stats.mode & 0o111) === 0 || !executable(candidate)) continue;
      return realpathSync.native(candidate);
    } catch {
      // An entry that is a file or cannot be searched, or a program gone meanwhile: bash looks further.
    }
  }
  return undefined;
}
