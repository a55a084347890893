import { closeSync, readSync } from 'node:fs';
import { displayPath, escapeDeceptive } from '../../core/kits/tool/index.js';
import { secretContent } from '../../core/kits/fs/index.js';
import { isRefusal, openChecked, Withheld, type Boundary } from './fs-guard.js';
import { decodeText } from './file-io.js';
import type { GrepFile } from './grep-query.js';

/** Hit files past this size are shown by name and count only: their lines are not re-read. */
const MAX_VERIFY_BYTES = 64 * 1024 * 1024;
/** How much of a file is sniffed for credentials when its lines are not shown. */
const SNIFF_BYTES = 64 * 1024;

function readAll(fd: number, size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let offset = 0;
  while (offset < size) {
    const n = readSync(fd, bytes, offset, size - offset, offset);
    if (n === 0) break;
    offset += n;
  }
  return bytes.subarray(0, offset);
}

/**
 * The hits whichever backend found them, re-checked on what is opened now: each file is opened
 * without following a final symlink and must be a regular file with one link, really inside
 * the boundary, not a secret by name or by content. The lines shown are taken from that open
 * file, so nothing read before the check (by ripgrep, say) reaches the output.
 */
export function verifyHits(found: GrepFile[], boundary: Boundary, projectRoot: string, withContent: boolean): { kept: GrepFile[]; withheld: Withheld } {
  const withheld = new Withheld();
  const kept: GrepFile[] = [];
  for (const file of found) {
    const shown = escapeDeceptive(displayPath(file.path, projectRoot));
    const opened = openChecked(file.path, shown, boundary);
    if (isRefusal(opened)) {
      withheld.add(opened.kind);
      continue;
    }
    try {
      if (opened.stats.size > MAX_VERIFY_BYTES) {
        kept.push({ ...file, lines: [] });
        continue;
      }
      // Names and counts need only the file's head sniffed for a key; shown lines need it whole.
      const bytes = readAll(opened.fd, withContent ? opened.stats.size : Math.min(opened.stats.size, SNIFF_BYTES));
      const text = hasBom(bytes) ? decodeText(bytes).text : bytes.toString('utf8');
      if (secretContent(text)) {
        withheld.add('secret');
        continue;
      }
      if (!withContent) {
        kept.push(file);
        continue;
      }
      const lines = text.split('\n');
      const verified = file.lines.flatMap((hit) => (hit.line >= 1 && hit.line <= lines.length ? [{ ...hit, text: stripCr(lines[hit.line - 1]!) }] : []));
      if (verified.length) kept.push({ ...file, lines: verified });
    } finally {
      closeSync(opened.fd);
    }
  }
  return { kept, withheld };
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function hasBom(bytes: Buffer): boolean {
  return (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}
