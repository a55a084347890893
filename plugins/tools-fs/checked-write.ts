import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, constants } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errorResult, type ToolResult } from '../../core/kits/tool/index.js';
import { writeFileAtomicSync } from '../../core/kits/fs/index.js';
import { checksum } from './file-io.js';
import { dirAllowed, fdRealPath, isRefusal, openDirChecked, refusalOf, type Boundary, type Refusal } from './fs-guard.js';

/**
 * Race-free writes. The folder is opened once and its real path checked; everything after that
 * (reading the old file, the temp file, the rename) goes through that open folder
 * (`/proc/self/fd/N/name` on Linux, which the kernel resolves from the folder held, like openat),
 * so swapping a folder for a symlink after the check cannot move the write elsewhere.
 */

/** The file as it is on disk now, when it exists. */
export interface CurrentFile {
  bytes: Buffer;
  mode: number;
  checksum: string;
  links: number;
}

/** What to write, or a result that ends the call without writing. */
export type WritePlan = { bytes: Uint8Array; mode?: number } | ToolResult;

const HAS_PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A refusal as the model sees it. */
export function refusedResult(refusal: Refusal, verb: string): ToolResult {
  if (refusal.kind === 'missing') return errorResult('ASSISTANT_TOOL_FAILED', `${refusal.reason}.`);
  return errorResult('ASSISTANT_TOOL_PATH_REFUSED', `Not ${verb}: ${refusal.reason}.`, { refused: refusal.kind });
}

/** Creates the missing folders of `dir` one at a time, each inside a folder already checked. */
function makeFolders(dir: string, shown: string, boundary: Boundary): Refusal | undefined {
  const missing: string[] = [];
  let existing = dir;
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(basename(existing));
    existing = parent;
  }
  for (const name of missing) {
    const opened = openDirChecked(existing, shown, boundary);
    if (isRefusal(opened)) return opened;
    try {
      mkdirSync(HAS_PROC_FD ? `/proc/self/fd/${opened.fd}/${name}` : join(opened.real, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      closeSync(opened.fd);
    }
    existing = join(existing, name);
  }
  return undefined;
}

/** The file in the held folder, or undefined when it does not exist; a symlink there is refused (O_NOFOLLOW). */
function readCurrent(at: (name: string) => string, base: string, shown: string): CurrentFile | Refusal | ToolResult | undefined {
  let fd: number;
  try {
    fd = openSync(at(base), constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a directory; give a file path.`);
    return refusalOf(error, shown);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a directory; give a file path.`);
    if (!stats.isFile()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is not a regular file (a device, pipe or socket); it cannot be written as text.`);
    const bytes = readFileSync(fd);
    return { bytes, mode: stats.mode, checksum: checksum(bytes), links: stats.nlink };
  } finally {
    closeSync(fd);
  }
}

export interface CheckedWriteOptions {
  /** Accept a target with more than one hard link (the policy asked about it before the call). */
  allowHardLinks?: boolean;
}

/**
 * Reads the current file at `path` (resolved), lets `plan` decide what to write, and writes it
 * atomically (temp file, fsync, rename, fsync of the folder), all through the one folder checked
 * to be inside the boundary. The result is `plan`'s refusal, a refusal of the path, or what was written.
 */
export function writeChecked(
  path: string,
  shown: string,
  boundary: Boundary,
  plan: (current: CurrentFile | undefined) => WritePlan,
  options: CheckedWriteOptions = {},
): ToolResult | { bytes: Uint8Array; current: CurrentFile | undefined } {
  const secret = boundary.isSecret(path);
  if (secret) return refusedResult({ kind: 'secret', reason: `${shown} is a secret file (${secret})` }, 'written');
  const dir = dirname(path);
  const base = basename(path);
  const made = makeFolders(dir, shown, boundary);
  if (made) return refusedResult(made, 'written');
  const folder = openDirChecked(dir, shown, boundary);
  if (isRefusal(folder) && folder.kind === 'missing')
    return errorResult('ASSISTANT_TOOL_FAILED', `The folder of ${shown} disappeared while writing (moved or deleted by another process); nothing was written.`);
  if (isRefusal(folder)) return refusedResult(folder, 'written');
  const at = (name: string) => (HAS_PROC_FD ? `/proc/self/fd/${folder.fd}/${name}` : join(folder.real, name));
  const stillThere = () => {
    const real = fdRealPath(folder.fd, dir);
    return real !== undefined && dirAllowed(real, boundary) ? real : undefined;
  };
  try {
    const where = join(folder.real, base);
    const secretThere = boundary.isSecret(where);
    if (secretThere) return refusedResult({ kind: 'secret', reason: `${shown} is a secret file (${secretThere})` }, 'written');
    const current = readCurrent(at, base, shown);
    if (isRefusal(current)) return refusedResult(current, 'written');
    if (current && 'content' in current) return current;
    if (current && current.links > 1 && !options.allowHardLinks)
      return refusedResult({ kind: 'hard link', reason: `${shown} has ${current.links} hard links, so it may be a file from elsewhere` }, 'written');
    const decided = plan(current);
    if ('content' in decided) return decided;
    const mode = decided.mode ?? current?.mode;
    const written = writeFileAtomicSync(at(base), decided.bytes, {
      ...(mode === undefined ? {} : { mode: mode & 0o7777 }),
      // A new project file gets the usual permissions (umask applied), like any editor's.
      newFileMode: 0o666,
      sweepStaleTemps: true,
      // The folder held may have been moved since it was checked: look again just before the rename.
      beforeRename: () => stillThere() !== undefined,
    });
    if (!written) return refusedResult({ kind: 'outside', reason: `the folder of ${shown} was moved out of the project while writing` }, 'written');
    return { bytes: decided.bytes, current };
  } finally {
    closeSync(folder.fd);
  }
}
