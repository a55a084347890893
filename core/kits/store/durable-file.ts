import { open, readFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../fs/index.js';

/** An append-only JSON-lines file open for writing. */
export interface JsonlAppender {
  /** The file appended to. */
  readonly path: string;
  /** Bytes of a torn last line removed when the file was opened (0 when the file was whole). */
  readonly repairedBytes: number;
  /** Appends records, one line each, in one write. */
  append(records: unknown[]): Promise<void>;
  /** Flushes appended records to the disk (fdatasync). */
  sync(): Promise<void>;
  /** Flushes and closes the file. */
  close(): Promise<void>;
}

/** Length of the file up to and including its last newline. */
async function wholeLength(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const at = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}

/**
 * Opens (creating, user-only) a JSON-lines file for appending. A torn last line left by a crash
 * is cut off first, so the next record never glues onto garbage.
 */
export async function openJsonlAppender(path: string): Promise<JsonlAppender> {
  await ensurePrivateDir(dirname(path));
  const handle = await open(path, 'a+', PRIVATE_FILE_MODE);
  let repairedBytes = 0;
  try {
    const { size } = await handle.stat();
    if (size > 0) {
      const whole = await wholeLength(handle, size);
      if (whole < size) {
        await handle.truncate(whole);
        repairedBytes = size - whole;
      }
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return {
    path,
    repairedBytes,
    async append(records) {
      if (!records.length) return;
      let text = '';
      for (const record of records) text += JSON.stringify(record) + '\n';
      await handle.appendFile(text);
    },
    sync: () => handle.datasync(),
    close: () => handle.close(),
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
