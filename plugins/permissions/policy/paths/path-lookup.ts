import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

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
 * Where the shell finds a bare command name on PATH, as a real path; undefined when nowhere (or on
 * Windows, whose lookup adds PATHEXT). Only PATH's absolute entries count: the Bash tool drops the
 * others from its commands' environment. The first executable regular file wins, as for bash.
 */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  if (process.platform === 'win32' || !name || name.includes('/')) return undefined;
  for (const dir of path.split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, name);
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
