import { visibleWidth } from '../terminal/width.js';

const WORD = /[\p{L}\p{N}_]/u;

/** The text being typed and the cursor in it: pure editing operations, no terminal I/O. */
export class TextBuffer {
  text = '';
  /** Cursor offset in UTF-16 code units, always on a code point boundary. */
  cursor = 0;

  get empty(): boolean {
    return this.text.length === 0;
  }

  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  clear(): void {
    this.set('');
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  backspace(): void {
    const start = this.prevBoundary(this.cursor);
    this.remove(start, this.cursor);
  }

  deleteForward(): void {
    this.remove(this.cursor, this.nextBoundary(this.cursor));
  }

  left(): void {
    this.cursor = this.prevBoundary(this.cursor);
  }

  right(): void {
    this.cursor = this.nextBoundary(this.cursor);
  }

  /** Start of the current line (Home, Ctrl+A). */
  home(): void {
    this.cursor = this.lineStart(this.cursor);
  }

  /** End of the current line (End, Ctrl+E). */
  end(): void {
    this.cursor = this.lineEnd(this.cursor);
  }

  wordLeft(): void {
    this.cursor = this.wordStart(this.cursor);
  }

  wordRight(): void {
    let i = this.cursor;
    while (i < this.text.length && !WORD.test(this.charAt(i))) i = this.nextBoundary(i);
    while (i < this.text.length && WORD.test(this.charAt(i))) i = this.nextBoundary(i);
    this.cursor = i;
  }

  /** Deletes the word before the cursor (Ctrl+W, Alt+Backspace). */
  deleteWordBack(): void {
    this.remove(this.wordStart(this.cursor), this.cursor);
  }

  deleteWordForward(): void {
    const from = this.cursor;
    this.wordRight();
    this.remove(from, this.cursor);
  }

  /** Deletes to the end of the line (Ctrl+K); at a line end, joins the next line. */
  killToEnd(): void {
    const end = this.lineEnd(this.cursor);
    this.remove(this.cursor, end === this.cursor ? Math.min(end + 1, this.text.length) : end);
  }

  /** Deletes to the start of the line (Ctrl+U). */
  killToStart(): void {
    this.remove(this.lineStart(this.cursor), this.cursor);
  }

  /** True when the cursor is on the first line (Up then walks history). */
  get onFirstLine(): boolean {
    return this.text.lastIndexOf('\n', this.cursor - 1) < 0;
  }

  /** True when the cursor is on the last line (Down then walks history). */
  get onLastLine(): boolean {
    return this.text.indexOf('\n', this.cursor) < 0;
  }

  /** Moves to the previous line, keeping the column on screen; false when already on the first. */
  up(): boolean {
    if (this.onFirstLine) return false;
    const start = this.lineStart(this.cursor);
    const column = visibleWidth(this.text.slice(start, this.cursor));
    this.cursor = this.atColumn(this.lineStart(start - 1), column);
    return true;
  }

  /** Moves to the next line, keeping the column on screen; false when already on the last. */
  down(): boolean {
    if (this.onLastLine) return false;
    const start = this.lineStart(this.cursor);
    const column = visibleWidth(this.text.slice(start, this.cursor));
    this.cursor = this.atColumn(this.lineEnd(this.cursor) + 1, column);
    return true;
  }

  /** Replaces `text[start, end)` and puts the cursor after the replacement. */
  replace(start: number, end: number, replacement: string): void {
    this.text = this.text.slice(0, start) + replacement + this.text.slice(end);
    this.cursor = start + replacement.length;
  }

  private remove(start: number, end: number): void {
    if (end <= start) return;
    this.text = this.text.slice(0, start) + this.text.slice(end);
    this.cursor = start;
  }

  private atColumn(lineStart: number, column: number): number {
    let i = lineStart;
    let width = 0;
    const end = this.lineEnd(lineStart);
    while (i < end) {
      const next = this.nextBoundary(i);
      const w = visibleWidth(this.text.slice(i, next));
      if (width + w > column) break;
      width += w;
      i = next;
    }
    return i;
  }

  private charAt(i: number): string {
    return String.fromCodePoint(this.text.codePointAt(i) ?? 0);
  }

  private wordStart(from: number): number {
    let i = from;
    while (i > 0 && !WORD.test(this.charAt(this.prevBoundary(i)))) i = this.prevBoundary(i);
    while (i > 0 && WORD.test(this.charAt(this.prevBoundary(i)))) i = this.prevBoundary(i);
    return i;
  }

  private lineStart(i: number): number {
    return this.text.lastIndexOf('\n', i - 1) + 1;
  }

  private lineEnd(i: number): number {
    const end = this.text.indexOf('\n', i);
    return end < 0 ? this.text.length : end;
  }

  private prevBoundary(i: number): number {
    if (i <= 0) return 0;
    const low = this.text.charCodeAt(i - 1);
    return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? i - 2 : i - 1;
  }

  private nextBoundary(i: number): number {
    if (i >= this.text.length) return this.text.length;
    const cp = this.text.codePointAt(i)!;
    return i + (cp > 0xffff ? 2 : 1);
  }
}
