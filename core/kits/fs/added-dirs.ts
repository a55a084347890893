import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '../../kernel/errors.js';
import { realPath } from '../../tools/paths.js';
import { userDirs } from '../../util/paths.js';

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

/** assistant's own folders (configuration, sessions and grants, caches), symlinks resolved where they exist. */
function ownFolders(): string[] {
  // Resolved through existing parents too: a data folder not made yet may sit below a symlink.
  return Object.values(userDirs(process.env)).map((dir) => realPath(resolve(dir)));
}

/**
 * The real paths of `permissions.additionalDirectories` (`--add-dir`; absolute once loaded), checked
 * at start and shared by the permission policy, the file tools and the Bash sandbox: each must be an
 * existing folder, its symlinks resolved once here (a link swapped later widens nothing), and never
 * the file system root, a system folder, the home folder (or a folder holding it), or assistant's
 * own configuration, data or cache folder (or a folder in or holding one). Folders inside `projectRoot` (real, when known), or inside another
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
    // Its own folders hold the user's rules, other projects' sessions and the trust store: never a project's.
    const own = ownFolders().find((folder) => within(folder, real) || within(real, folder));
    if (own)
      throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${where} ${within(real, own) ? 'is in' : 'holds'} assistant's own folder ${own} (its configuration, sessions and grants); add the folder the task needs`);
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

/** What the run-time list needs of a kernel (the kernel itself keys it, so a fresh kernel starts empty). */
interface AddingKernel {
  readonly projectRoot: string;
  readonly cwd: string;
  readonly config: unknown;
}

/** Per kernel: folders added while it runs (`/add-dir`), real paths, and who wants to hear of the next one. */
const addedWhileRunning = new WeakMap<object, { dirs: string[]; listeners: Array<(dir: string) => void> }>();
const runState = (kernel: object) => {
  let state = addedWhileRunning.get(kernel);
  if (!state) addedWhileRunning.set(kernel, (state = { dirs: [], listeners: [] }));
  return state;
};

/** The configured added directories, real; none when the list does not check out (the policy refuses such a start). */
function configuredReal(kernel: AddingKernel, realRoot: string): string[] {
  try {
    return realAddedDirectories(configuredAddedDirectories(kernel.config as Record<string, unknown>), realRoot, 'the configuration');
  } catch {
    return [];
  }
}

/** Every added directory in force: the configured ones (`--add-dir`, the user's or a trusted project's config) and those added while running. */
export function addedDirectoriesOf(kernel: AddingKernel, realRoot: string): string[] {
  return [...new Set([...configuredReal(kernel, realRoot), ...(addedWhileRunning.get(kernel)?.dirs ?? [])])];
}

/** Folders added while the kernel runs (`/add-dir`), real paths. */
export function directoriesAddedWhileRunning(kernel: object): readonly string[] {
  return addedWhileRunning.get(kernel)?.dirs ?? [];
}

/** Calls `listener` with the real path of each folder added from now on (`/add-dir`). */
export function onDirectoryAdded(kernel: object, listener: (dir: string) => void): void {
  runState(kernel).listeners.push(listener);
}

/**
 * Adds a folder for the rest of this run (`/add-dir`) with the checks of `--add-dir`: relative to
 * the working directory (`~/` to the home folder), existing, symlinks resolved once, never `/`, a
 * system folder or the home folder. Returns its real path, or `covered` naming the project or added
 * folder that already holds it (nothing is added). Bad input throws ASSISTANT_CONFIG_INVALID.
 */
export function addDirectoryWhileRunning(kernel: AddingKernel, dir: string, realRoot: string): { added: string } | { covered: string } {
  const home = process.env.HOME || homedir();
  const given = dir === '~' || dir.startsWith('~/') ? home + dir.slice(1) : resolve(kernel.cwd, dir);
  const [real] = realAddedDirectories([given], undefined, '/add-dir');
  const covering = [realRoot, ...addedDirectoriesOf(kernel, realRoot)].find((root) => within(real!, root));
  if (covering) return { covered: covering };
  const state = runState(kernel);
  state.dirs.push(real!);
  for (const listener of state.listeners) listener(real!);
  return { added: real! };
}
