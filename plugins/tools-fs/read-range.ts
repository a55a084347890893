import { readSync } from 'node:fs';

/** Bytes read from the file at a time. */
const CHUNK_BYTES = 1024 * 1024;

/** Lines `first`..`first + count - 1` (1-based) of a file too large to read whole, read as a stream. */
export interface LineRange {
  /** The lines found, each cut to `maxLineBytes` bytes (decoded as UTF-8, else Latin-1). */
  lines: Array<{ text: string; bytes: number }>;
  /** The file ended before the range did (so the file's line count is known: `total`). */
  total?: number;
  /** A line was not valid UTF-8 and was decoded as Latin-1. */
  latin1: boolean;
}

function decodeLine(bytes: Buffer): { text: string; latin1: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), latin1: false };
  } catch {
    return { text: bytes.toString('latin1'), latin1: true };
  }
}

/**
 * Reads the requested lines from an open file without holding more than one chunk and the wanted
 * lines in memory: a 10 GB log costs what the lines asked for cost, and reading stops at the last one
 * (or once `maxTotalBytes` of lines are collected).
 */
export function readLineRange(fd: number, first: number, count: number, maxLineBytes: number, maxTotalBytes: number): LineRange {
  const last = first + count - 1;
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const lines: LineRange['lines'] = [];
  let latin1 = false;
  let lineNo = 1;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let lineBytes = 0;
  let sawAny = false;
  let collected = 0;
  // A huge `limit` stops at the byte budget, as a whole read would: the note says where to go on.
  const wanted = () => lineNo <= last && collected < maxTotalBytes;
  const finishLine = () => {
    if (lineNo >= first && lineNo <= last) {
      let bytes = Buffer.concat(kept);
      if (bytes[bytes.length - 1] === 0x0d && lineBytes <= maxLineBytes) bytes = bytes.subarray(0, -1);
      const decoded = decodeLine(bytes);
      latin1 ||= decoded.latin1;
      lines.push({ text: decoded.text, bytes: lineBytes });
      collected += bytes.length + 1;
    }
    lineNo++;
    kept = [];
    keptBytes = 0;
    lineBytes = 0;
  };
  for (let position = 0; wanted(); ) {
    const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
    if (read === 0) break;
    position += read;
    sawAny = true;
    let start = 0;
    while (start < read && wanted()) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 || newline >= read ? read : newline;
      if (lineNo >= first && keptBytes < maxLineBytes) {
        const piece = chunk.subarray(start, Math.min(end, start + maxLineBytes - keptBytes));
        kept.push(Buffer.from(piece));
        keptBytes += piece.length;
      }
      lineBytes += end - start;
      if (end === read) break;
      finishLine();
      start = end + 1;
    }
  }
  if (!wanted()) return { lines, latin1 };
  // The file ended inside the range: a last line without a newline still counts.
  if (lineBytes > 0 || kept.length) finishLine();
  return { lines, total: sawAny ? lineNo - 1 : 0, latin1 };
}
