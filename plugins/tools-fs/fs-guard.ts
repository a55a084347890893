import { closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { isInside, type WorkerTask } from '../../core/kits/tool/index.js';
import { createSecretMatcher, DEFAULT_SECRET_ALLOW, type SecretOptions } from '../../core/kits/fs/index.js';

/**
 * The worker's half of the path guard: the permission policy judged a path string; this checks
 * what is actually opened (its real path, link count, kind), so a symlink swapped in after the
 * check, a hard link to a file elsewhere or a secret under another name is caught where it counts.
 */

/** Why a file was refused or withheld; the kinds are counted in search results. */
export type RefusalKind = 'secret' | 'outside' | 'hard link' | 'symlink loop' | 'not a regular file' | 'missing';

export interface Refusal {
  kind: RefusalKind;
  /** For people and the model; names the path as shown, never its content. */
  reason: string;
}

/** A file opened and checked: read from `fd`, close it when done. */
export interface CheckedFile {
  fd: number;
  stats: Stats;
  /** The real path of what was opened. */
  real: string;
}

/** Where a call may reach: the project, or (for a path the model named outside it, which the policy judged) just that path. */
export interface Boundary {
  /** Real path every opened file must be at or below. */
  root: string;
  /** The project root (real). */
  projectRoot: string;
  /** The added directories (`--add-dir`), real paths: trees like the project. */
  addedRoots: readonly string[];
  /** Is `path` a secret (by name)? */
  isSecret: (path: string) => string | undefined;
}

const HAS_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const matchers = new Map<string, (path: string) => string | undefined>();

/** The secret check for a task (its patterns come from the `permissions.secrets` config, as plain data). */
export function secretCheck(task: WorkerTask): (path: string) => string | undefined {
  const given = task.options.secrets as Partial<SecretOptions> | undefined;
  const options: SecretOptions = { extra: given?.extra ?? [], allow: given?.allow ?? DEFAULT_SECRET_ALLOW };
  const key = JSON.stringify(options);
  let matcher = matchers.get(key);
  if (!matcher) matchers.set(key, (matcher = createSecretMatcher(options)));
  return matcher;
}

/**
 * The boundary of a path the model gave: written inside the project (before any symlink), what
 * is opened must be inside the project too; written outside it, the policy judged that very
 * path, so what is opened must be it (or below it, for a folder searched).
 */
export function boundaryFor(raw: string | undefined, resolved: string, task: WorkerTask): Boundary {
  const projectRoot = task.projectRoot;
  const lexical = raw === undefined ? projectRoot : isAbsolute(raw) ? resolve(raw) : resolve(projectRoot, raw);
  const added = addedRootsOf(task);
  // Written inside an added directory (as configured, or by its real path): the same rule as the project.
  const addedRoot = added.find((dir) => isInside(lexical, dir.real) || isInside(lexical, dir.given))?.real;
  const root = isInside(lexical, projectRoot) ? projectRoot : (addedRoot ?? resolved);
  return { root, projectRoot, addedRoots: added.map((dir) => dir.real), isSecret: secretCheck(task) };
}

/** The added directories handed to the worker (plain data: as configured and real). */
function addedRootsOf(task: WorkerTask): Array<{ given: string; real: string }> {
  const list = task.options.addedRoots;
  return Array.isArray(list) ? list.filter((d): d is { given: string; real: string } => !!d && typeof d === 'object' && typeof (d as { real?: unknown }).real === 'string' && typeof (d as { given?: unknown }).given === 'string') : [];
}

/** Whatever is below the boundary's root may be opened (the project, an added directory), not just the path named. */
const isTree = (boundary: Boundary) => boundary.root === boundary.projectRoot || boundary.addedRoots.includes(boundary.root);

/** The real path of an open file descriptor, or undefined when it cannot be proven. */
export function fdRealPath(fd: number, path: string): string | undefined {
  if (HAS_PROC_FD) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.endsWith(' (deleted)') ? undefined : target;
    } catch {
      return undefined;
    }
  }
  // Without /proc: the path's real location, accepted only when it is the very file we hold.
  try {
    const real = realpathSync.native(path);
    const held = fstatSync(fd);
    const there = statSync(real);
    return held.dev === there.dev && held.ino === there.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

/** Why the opened `real` path may not be used, or undefined when it may. */
export function refuseOpened(real: string | undefined, shown: string, boundary: Boundary): Refusal | undefined {
  if (real === undefined) return { kind: 'outside', reason: `where ${shown} really is could not be verified` };
  const secret = boundary.isSecret(real);
  if (secret) return { kind: 'secret', reason: `${shown} is a secret file (${secret})` };
  if (!isInside(real, boundary.root)) {
    // Named inside the project but really elsewhere (a symlink, maybe swapped in after the check):
    // only the real path, which the policy judges as outside and asks about, may reach it.
    if (isTree(boundary))
      return { kind: 'outside', reason: `${shown} resolves to ${real}, outside the project (to use it, name ${real} itself: the user will be asked)` };
    return { kind: 'outside', reason: `${shown} resolves to ${real}, not to the path that was approved` };
  }
  return undefined;
}

/** Turns an open/stat error into a refusal (a symlink loop fails closed with its own reason). */
export function refusalOf(error: unknown, shown: string): Refusal {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return { kind: 'symlink loop', reason: `${shown} is a symlink, or a loop of symlinks, where a file was expected` };
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing', reason: `${shown} does not exist` };
  throw error;
}

export interface OpenOptions {
  /** Accept a file with more than one hard link (Read, after the policy asked about it). */
  allowHardLinks?: boolean;
}

/**
 * Opens `path` (already resolved) for reading without following a final symlink, then checks
 * what it got: a regular file, its real path inside the boundary, not a secret, one link.
 * The caller reads from the returned fd and closes it.
 */
export function openChecked(path: string, shown: string, boundary: Boundary, options: OpenOptions = {}): CheckedFile | Refusal {
  const secret = boundary.isSecret(path);
  if (secret) return { kind: 'secret', reason: `${shown} is a secret file (${secret})` };
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    return refusalOf(error, shown);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      closeSync(fd);
      return { kind: 'not a regular file', reason: `${shown} is not a regular file` };
    }
    const real = fdRealPath(fd, path);
    const refusal = refuseOpened(real, shown, boundary);
    if (refusal) {
      closeSync(fd);
      return refusal;
    }
    if (stats.nlink > 1 && !options.allowHardLinks) {
      closeSync(fd);
      return { kind: 'hard link', reason: `${shown} has ${stats.nlink} hard links, so it may be a file from elsewhere` };
    }
    return { fd, stats, real: real! };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Opens a folder (following links: its real path is what is checked): it must be inside the
 * project, or, for a file named outside it, be exactly that file's folder.
 */
export function openDirChecked(path: string, shown: string, boundary: Boundary): { fd: number; real: string } | Refusal {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return { kind: 'not a regular file', reason: `${shown} is not a directory` };
    return refusalOf(error, shown);
  }
  const real = fdRealPath(fd, path);
  if (!real || !dirAllowed(real, boundary)) {
    closeSync(fd);
    return { kind: 'outside', reason: real ? `the folder of ${shown} resolves to ${real}, outside the project` : `where the folder of ${shown} really is could not be verified` };
  }
  return { fd, real };
}

/** Whether a folder's real path is one the boundary allows writing in. */
export function dirAllowed(real: string, boundary: Boundary): boolean {
  return isTree(boundary) ? isInside(real, boundary.root) : real === dirname(boundary.root);
}

export function isRefusal(value: unknown): value is Refusal {
  return !!value && typeof value === 'object' && 'kind' in value && 'reason' in value;
}

/** Files left out of a search result, counted by why; says so without naming what they hold. */
export class Withheld {
  private readonly counts = new Map<RefusalKind, number>();

  add(kind: RefusalKind): void {
    if (kind === 'missing') return;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  get total(): number {
    let n = 0;
    for (const count of this.counts.values()) n += count;
    return n;
  }

  /** `(3 files withheld: 2 secret, 1 outside the project)`, or '' when none was. */
  note(): string {
    if (!this.total) return '';
    const parts = [...this.counts].map(([kind, n]) => `${n} ${kind === 'outside' ? 'outside the project' : kind}`);
    return `(${this.total} file${this.total === 1 ? '' : 's'} withheld: ${parts.join(', ')}. Secret files, hard links and files outside the project are never shown.)`;
  }

  toJson(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
