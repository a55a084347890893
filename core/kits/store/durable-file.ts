import { closeSync, existsSync, fdatasync, fstatSync, ftruncateSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../fs/index.js';

/** An append-only JSON-lines file open for writing. */
export interface JsonlAppender {
  /** The file appended to. */
  readonly path: string;
  /** Bytes of a torn last line removed when the file was opened (0 when the file was whole). */
  readonly repairedBytes: number;
  /** Appends records, one line each, in one write. */
  append(records: unknown[]): Promise<void>;
  /** Flushes appended records to the disk (fdatasync); nothing to do when none were appended since the last flush. */
  sync(): Promise<void>;
  /** Closes the file (without flushing: `sync` first for that). */
  close(): Promise<void>;
}

/** Length of the file up to and including its last newline. */
function wholeLength(fd: number, size: number): number {
  const chunk = Buffer.alloc(Math.min(size, 64 * 1024));
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const bytesRead = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * Opens (creating, user-only) a JSON-lines file for appending. A torn last line left by a crash
 * is cut off first, so the next record never glues onto garbage.
 * Opening and appending are synchronous system calls: a line goes to the page cache in
 * microseconds, where a round trip through libuv's thread pool (and fs/promises' FileHandle) cost
 * more than the write, several times per turn. Only the flush, which waits for the disk, leaves
 * the thread.
 */
export async function openJsonlAppender(path: string): Promise<JsonlAppender> {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const fd = openSync(path, 'a+', PRIVATE_FILE_MODE);
  let repairedBytes = 0;
  try {
    const { size } = fstatSync(fd);
    if (size > 0) {
      const whole = wholeLength(fd, size);
      if (whole < size) {
        ftruncateSync(fd, whole);
        repairedBytes = size - whole;
      }
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let unflushed = false;
  let closed = false;
  /** The fdatasync under way: close waits for it, so the descriptor is never closed (and reused) under it. */
  let flushing: Promise<void> | undefined;
  const ensureOpen = () => {
    if (closed) throw Object.assign(new Error(`${path}: the file was closed`), { code: 'EBADF' });
  };
  return {
    path,
    repairedBytes,
    async append(records) {
      ensureOpen();
      if (!records.length) return;
      let text = '';
      for (const record of records) text += JSON.stringify(record) + '\n';
      const bytes = Buffer.from(text);
      // O_APPEND: every write lands at the end; a short write (a full disk) goes on from where it stopped, or throws.
      for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
      unflushed = true;
    },
    async sync() {
      ensureOpen();
      if (!unflushed) return;
      unflushed = false;
      const flush = new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
      flushing = flush.catch(() => undefined);
      try {
        await flush;
      } catch (error) {
        unflushed = true;
        throw error;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await flushing;
      closeSync(fd);
    },
  };
}

/** What reading a JSON-lines file found. */
export interface JsonlContents<T> {
  /** The parsed lines, with their 1-based line numbers. */
  records: Array<{ line: number; value: T }>;
  /** For people: a torn last line, lines that are not JSON. Each names the file and line. */
  warnings: string[];
  /** True when the last line was cut off (a crash while writing it). */
  torn: boolean;
}

/** Reads a JSON-lines file; a torn last line and unparsable lines are reported and skipped. `undefined` when absent. */
export async function readJsonl<T = unknown>(path: string): Promise<JsonlContents<T> | undefined> {
  // A new session's files do not exist yet: said without a trip through the thread pool (or loading fs/promises).
  if (!existsSync(path)) return undefined;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseJsonl<T>(text, path);
}

/** Parses JSON-lines text (see `readJsonl`). */
export function parseJsonl<T = unknown>(text: string, path: string): JsonlContents<T> {
  const records: Array<{ line: number; value: T }> = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  const torn = tail.length > 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    try {
      records.push({ line: i + 1, value: JSON.parse(line) as T });
    } catch {
      warnings.push(`${path}:${i + 1}: not a valid record (${line.length} bytes of damaged JSON); skipped`);
    }
  }
  if (torn)
    warnings.push(`${path}:${lines.length + 1}: the last record was cut off (${Buffer.byteLength(tail)} bytes; the process stopped while writing it); skipped, everything before it is intact`);
  return { records, warnings, torn };
}
