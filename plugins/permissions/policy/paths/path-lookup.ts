import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

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
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // Not there, or not executable: bash looks further.
    }
  }
  return undefined;
}
