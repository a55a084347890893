import { createHash, randomBytes } from 'node:crypto';
import { closeSync, chmodSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** How a text file's bytes map to characters; kept so a rewrite does not change it. */
export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'latin1';

/** SHA-256 of a file's bytes: what "the version the model saw" means. */
export function checksum(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The file's stats, or undefined when nothing is there. */
export function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Bytes that mark text as UTF-16 (which has NULs but is not binary). */
function bomEncoding(bytes: Uint8Array): TextEncoding | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8-bom';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return undefined;
}

/** Binary the way git judges it: a NUL byte in the first 8000 bytes (UTF-16 with a BOM excepted). */
export function looksBinary(bytes: Uint8Array): boolean {
  if (bomEncoding(bytes)?.startsWith('utf16')) return false;
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Decodes text: BOMs honoured, UTF-8 when valid, else Latin-1 (every byte maps, so nothing is lost). */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncoding } {
  const bom = bomEncoding(bytes);
  if (bom === 'utf8-bom') return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: bom };
  if (bom === 'utf16le') return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: bom };
  if (bom === 'utf16be') return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: bom };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf8' };
  } catch {
    return { text: Buffer.from(bytes).toString('latin1'), encoding: 'latin1' };
  }
}

/** Encodes text back into the encoding the file had. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  switch (encoding) {
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be': {
      const body = Buffer.from(text, 'utf16le');
      body.swap16();
      return Buffer.concat([Buffer.from([0xfe, 0xff]), body]);
    }
    case 'latin1':
      return Buffer.from(text, 'latin1');
    default:
      return Buffer.from(text, 'utf8');
  }
}

const TEMP_MARK = '.assistant-';
const CHUNK = 4 * 1024 * 1024;

function tempPrefix(path: string): string {
  return `.${basename(path)}${TEMP_MARK}`;
}

/** Removes temp files a killed earlier write of `path` left behind (our process's, or a dead one's). */
function removeStaleTemps(path: string): void {
  const prefix = tempPrefix(path);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid !== process.pid && processAlive(pid)) continue;
    try {
      unlinkSync(join(dirname(path), name));
    } catch {
      // Someone else removed it.
    }
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Writes `bytes` to `path` so that a reader (or a crash) sees the old file or the new one, never a
 * mix: temp file in the same folder, fsync, rename over the target, fsync the folder. Missing
 * parent folders are created; `mode` (the old file's) is kept.
 */
export function writeAtomic(path: string, bytes: Uint8Array, mode?: number): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  removeStaleTemps(path);
  const temp = join(dir, `${tempPrefix(path)}${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', mode ?? 0o666);
  try {
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, Math.min(CHUNK, bytes.length - offset));
    fsyncSync(fd);
    closeSync(fd);
    // open() applies the umask; an existing file's mode is restored exactly.
    if (mode !== undefined) chmodSync(temp, mode & 0o7777);
    renameSync(temp, path);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // Already closed.
    }
    try {
      unlinkSync(temp);
    } catch {
      // Never created or already renamed.
    }
    throw error;
  }
  syncFolder(dir);
}

/** Makes a rename durable (POSIX); Windows cannot open folders for fsync and does not need it. */
function syncFolder(dir: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse; the data itself is already synced.
  }
}
