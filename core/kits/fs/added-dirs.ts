import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative } from 'node:path';
import { ConfigError } from '../../kernel/errors.js';

/** Folders that can never be added (nor anything in them): system configuration, devices, kernel state. */
const NEVER_ADDED = ['/etc', '/private/etc', '/dev', '/proc', '/sys', '/boot'];

const within = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The user's home folder, symlinks resolved, when there is one. */
function realHome(): string | undefined {
  const home = process.env.HOME || homedir();
  try {
    return home ? realpathSync.native(home) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The real paths of `permissions.additionalDirectories` (`--add-dir`; absolute once loaded), checked
 * at start and shared by the permission policy, the file tools and the Bash sandbox: each must be an
 * existing folder, its symlinks resolved once here (a link swapped later widens nothing), and never
 * the file system root, a system folder, or the home folder (or a folder holding it). Folders inside `projectRoot` (real, when known), or inside another
 * added folder, add nothing and are dropped. `source` names where the list came from, for errors.
 */
export function realAddedDirectories(dirs: readonly unknown[], projectRoot: string | undefined, source: string): string[] {
  const reals: string[] = [];
  const home = realHome();
  for (const dir of dirs) {
    const where = `permissions.additionalDirectories (from ${source}): ${String(dir)}`;
    if (typeof dir !== 'string' || !isAbsolute(dir)) throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${where} is not an absolute path`);
    let real: string;
    try {
      real = realpathSync.native(dir);
    } catch (error) {
      throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${where} does not exist or cannot be reached (${(error as NodeJS.ErrnoException).code ?? error}); add an existing folder`);
    }
    if (!statSync(real).isDirectory()) throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${where} is not a directory; add a folder`);
    const system = real === '/' ? 'the file system root' : NEVER_ADDED.find((root) => within(real, root));
    if (system) throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${where} is ${real === '/' ? system : `in ${system}`}, which can never be added; name the folder the task needs`);
    // The home folder holds what configures every program the user runs (.gitconfig, .npmrc, ~/.local/bin).
    if (home && within(home, real))
      throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${where} ${real === home ? 'is' : 'holds'} your home folder, whose settings files configure every program you run; add the folder the task needs`);
    reals.push(real);
  }
  const kept = [...new Set(reals)].filter((dir) => projectRoot === undefined || !within(dir, projectRoot));
  return kept.filter((dir) => !kept.some((other) => other !== dir && within(dir, other)));
}

/** The added directories in a kernel's merged configuration, as given (absolute); [] when none. */
export function configuredAddedDirectories(config: Record<string, unknown>): unknown[] {
  const dirs = (config.permissions as { additionalDirectories?: unknown } | undefined)?.additionalDirectories;
  return Array.isArray(dirs) ? dirs : [];
}
