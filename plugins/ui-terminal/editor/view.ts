import type { Style } from '../terminal/style.js';
import { truncate, visibleWidth } from '../terminal/width.js';
import type { TextBuffer } from './buffer.js';

/** The input box as lines, and where the cursor is among them. */
export interface EditorView {
  lines: string[];
  cursor: { row: number; col: number };
}

const PROMPT = '› ';
const CONTINUE = '  ';

/**
 * Lays the input out under a prompt mark, wrapping long lines at the screen edge character by
 * character (so the cursor position is exact). When taller than `maxRows`, only the rows around
 * the cursor are shown.
 */
export function renderEditor(buffer: TextBuffer, style: Style, width: number, maxRows: number, placeholder = ''): EditorView {
  const room = Math.max(4, width - PROMPT.length);
  if (buffer.empty) {
    return { lines: [style.cyan(PROMPT) + style.gray(truncate(placeholder, room))], cursor: { row: 0, col: PROMPT.length } };
  }
  const rows: string[] = [];
  let cursor = { row: 0, col: PROMPT.length };
  let row = '';
  let used = 0;
  let offset = 0;
  const endRow = () => {
    rows.push(row);
    row = '';
    used = 0;
  };
  for (const [lineIndex, line] of buffer.text.split('\n').entries()) {
    if (lineIndex > 0) offset++; // the newline
    for (const ch of line) {
      const w = visibleWidth(ch);
      if (used + w > room) endRow();
      if (offset === buffer.cursor) cursor = { row: rows.length, col: PROMPT.length + used };
      row += ch;
      used += w;
      offset += ch.length;
    }
    // At the end of a full row the cursor sits in the spare column the screen keeps free.
    if (offset === buffer.cursor) cursor = { row: rows.length, col: PROMPT.length + used };
    endRow();
  }
  let lines = rows.map((r, i) => (i === 0 ? style.cyan(PROMPT) : CONTINUE) + r);
  if (lines.length > maxRows) {
    const start = Math.min(Math.max(0, cursor.row - Math.floor(maxRows / 2)), lines.length - maxRows);
    const hiddenAbove = start;
    const hiddenBelow = lines.length - start - maxRows;
    lines = lines.slice(start, start + maxRows);
    cursor = { row: cursor.row - start, col: cursor.col };
    // An indicator takes the place of a row, which then counts as hidden too.
    if (hiddenAbove) lines[0] = style.gray(`  ↑ ${hiddenAbove + 1} more lines`);
    if (hiddenBelow) lines[lines.length - 1] = style.gray(`  ↓ ${hiddenBelow + 1} more lines`);
  }
  return { lines, cursor };
}
