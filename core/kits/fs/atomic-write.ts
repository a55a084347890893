import { closeSync, constants, fchmodSync, fsyncSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from './private.js';
import { processAlive } from './process-alive.js';
import { secureRandomHex } from './secure-random.js';

/** How `writeFileAtomic` replaces a file. */
export interface AtomicWriteOptions {
  /** Permission bits of the file, applied exactly (the umask does not narrow them). Default: those of the file replaced. */
  mode?: number;
  /** Permission bits of a file that did not exist and was given no `mode`; the umask applies, as with open(). Default 0600. */
  newFileMode?: number;
  /**
   * Remove temp files earlier writes of this file left behind when they were killed between
   * creating and renaming (dead processes' and this process's own): only where writes of one
   * file are serialized, as the tool scheduler's locks do.
   */
  sweepStaleTemps?: boolean;
  /** A last check after the data is on disk, just before the rename: false abandons the write (the temp file is removed, the file untouched). */
  beforeRename?: () => boolean;
  /**
   * false: no fsync of the file or its directory. Still atomic for readers, but a crash of the
   * machine may leave the old content or an empty file: only for files rebuilt from others (a
   * session's summary, rebuilt from its events). Default true.
   */
  flush?: boolean;
}

/** Marks our temp files: `.<name>.assistant-<pid>-<random>.tmp`, hidden, beside the file. */
const TEMP_MARK = '.assistant-';
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A new file only, never through a symlink planted at the temp name. */
const CREATE_TEMP = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;
const CHUNK = 4 * 1024 * 1024;

function tempPrefix(path: string): string {
  return `.${basename(path)}${TEMP_MARK}`;
}

function tempPathFor(path: string): string {
  return join(dirname(path), `${tempPrefix(path)}${process.pid}-${secureRandomHex(6)}.tmp`);
}

function sweepStaleTemps(path: string): void {
  const dir = dirname(path);
  const prefix = tempPrefix(path);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Someone else removed it.
    }
  }
}

/** The mode to create with and whether to set it exactly, from the options and the file being replaced. */
function modeOf(options: AtomicWriteOptions, existing: number | undefined): { create: number; exact: boolean } {
  const exact = options.mode ?? existing;
  return exact === undefined ? { create: options.newFileMode ?? PRIVATE_FILE_MODE, exact: false } : { create: exact & 0o7777, exact: true };
}

function existingMode(path: string): number | undefined {
  try {
    return statSync(path).mode;
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Never created or already gone.
  }
}

/**
 * Replaces `path` atomically and durably: a temp file beside it (same directory, so the rename
 * never crosses file systems), fsync, the mode kept, rename over, fsync of the directory (both
 * fsyncs skipped with `flush: false`). Readers
 * see the old file or the new one, never a mix; a crash leaves one of them on disk. On failure the
 * temp file is removed and the file is untouched. Returns false when `beforeRename` abandoned it.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<boolean> {
  if (options.sweepStaleTemps) sweepStaleTemps(path);
  const mode = modeOf(options, options.mode === undefined ? await stat(path).then((s) => s.mode, () => undefined) : undefined);
  const temp = tempPathFor(path);
  const handle = await open(temp, CREATE_TEMP, mode.create);
  try {
    await handle.writeFile(data);
    if (mode.exact) await handle.chmod(mode.create);
    if (options.flush !== false) await handle.sync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  try {
    if (options.beforeRename && !options.beforeRename()) {
      await unlink(temp).catch(() => undefined);
      return false;
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (options.flush !== false) await syncDir(dirname(path));
  return true;
}

/** `writeFileAtomic` for code that must not yield: worker tools, configuration loading. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): boolean {
  if (options.sweepStaleTemps) sweepStaleTemps(path);
  const mode = modeOf(options, options.mode === undefined ? existingMode(path) : undefined);
  const temp = tempPathFor(path);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fd = openSync(temp, CREATE_TEMP, mode.create);
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, Math.min(CHUNK, bytes.length - offset));
    if (mode.exact) fchmodSync(fd, mode.create);
    if (options.flush !== false) fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw error;
  }
  closeSync(fd);
  try {
    if (options.beforeRename && !options.beforeRename()) {
      unlinkQuietly(temp);
      return false;
    }
    renameSync(temp, path);
  } catch (error) {
    unlinkQuietly(temp);
    throw error;
  }
  if (options.flush !== false) syncDirSync(dirname(path));
  return true;
}

// Some platforms and file systems cannot open or fsync a directory: the rename is still atomic there.
async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // See above.
  } finally {
    await handle?.close();
  }
}

function syncDirSync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // See above.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
