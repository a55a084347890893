import { breakLine, truncate, visibleWidth } from './width.js';

/** Where the output goes: a terminal stream (or anything shaped like one, in tests). */
export interface TerminalOutput {
  write(data: string): unknown;
  columns?: number;
  rows?: number;
}

/** What the live area at the bottom shows: lines, and where the cursor goes (hidden when absent). */
export interface LiveView {
  lines: string[];
  cursor?: { row: number; col: number };
}

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const SHOW_CURSOR = '\x1b[?25h';
const HIDE_CURSOR = '\x1b[?25l';
const RESET = '\x1b[0m';

/**
 * The screen in two parts: the scrollback, where finished output is written once and never
 * touched again, and a small live area at the bottom (streaming line, spinner, input, status)
 * redrawn in place. Each frame is one write wrapped in synchronized-output marks, so terminals
 * that support them paint it at once and the others still see minimal cursor moves: no flicker.
 */
export class Screen {
  private committed: string[] = [];
  /** Rows from the top of the live area to the row the cursor is on. */
  private cursorRow = 0;
  private cursorCol = 0;
  /** Widths of the live lines last drawn, to work out where they went after a resize. */
  private drawnWidths: number[] = [];
  private lastFrame = '';
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly out: TerminalOutput,
    private readonly view: () => LiveView,
    private readonly frameMs = 16,
  ) {}

  /** Usable columns: one less than the terminal, so a full line never triggers an auto-wrap. */
  get width(): number {
    return Math.max(20, (this.out.columns ?? 80) - 1);
  }

  get height(): number {
    return Math.max(5, this.out.rows ?? 24);
  }

  /** Queues finished lines for the scrollback (they are written with the next frame). */
  commit(lines: string[]): void {
    if (!lines.length) return;
    for (const line of lines) this.committed.push(...breakLine(line, this.width));
    this.schedule();
  }

  /** Asks for a frame soon; many requests in one burst draw once. */
  schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.draw();
    }, this.frameMs);
  }

  /** Draws now. */
  draw(): void {
    if (this.closed) return;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const view = this.view();
    const width = this.width;
    // Never taller than the screen: the cursor could not get back to the top of it.
    const room = this.height - 1;
    let lines = view.lines.map((l) => (visibleWidth(l) > width ? truncate(l, width) : l));
    let cursor = view.cursor;
    if (lines.length > room) {
      const cut = lines.length - room;
      lines = lines.slice(cut);
      if (cursor) cursor = { row: Math.max(0, cursor.row - cut), col: cursor.col };
    }
    if (!lines.length) lines = [''];
    const target = cursor ?? { row: lines.length - 1, col: visibleWidth(lines[lines.length - 1]!) };
    const key = lines.join('\n') + `|${target.row},${target.col},${!!cursor}`;
    if (!this.committed.length && key === this.lastFrame) return;
    this.lastFrame = key;

    let frame = SYNC_START + HIDE_CURSOR + this.toTop() + '\r\x1b[J';
    for (const line of this.committed) frame += line + RESET + '\r\n';
    this.committed = [];
    frame += lines.map((l) => l + RESET).join('\r\n');
    const up = lines.length - 1 - target.row;
    if (up > 0) frame += `\x1b[${up}A`;
    frame += '\r' + (target.col > 0 ? `\x1b[${target.col}C` : '');
    frame += (cursor ? SHOW_CURSOR : '') + SYNC_END;
    this.out.write(frame);
    this.cursorRow = target.row;
    this.cursorCol = target.col;
    this.drawnWidths = lines.map((l) => visibleWidth(l));
  }

  /** After a resize the terminal re-wrapped what we drew: find the live area's top again and redraw. */
  resized(): void {
    const columns = Math.max(1, this.out.columns ?? 80);
    let row = 0;
    for (let i = 0; i < this.cursorRow && i < this.drawnWidths.length; i++) row += Math.max(1, Math.ceil(this.drawnWidths[i]! / columns));
    this.cursorRow = row + Math.floor(this.cursorCol / columns);
    this.lastFrame = '';
    this.draw();
  }

  /** Clears the whole screen and scrollback (Ctrl+L, /clear). */
  clear(): void {
    this.out.write('\x1b[2J\x1b[3J\x1b[H');
    this.cursorRow = 0;
    this.drawnWidths = [];
    this.lastFrame = '';
    this.draw();
  }

  /** Writes pending output, removes the live area and leaves the cursor on a fresh line. */
  close(finalLines: string[] = []): void {
    if (this.closed) return;
    this.commit(finalLines);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let frame = this.toTop() + '\r\x1b[J';
    for (const line of this.committed) frame += line + RESET + '\r\n';
    this.committed = [];
    this.out.write(frame + SHOW_CURSOR);
    this.closed = true;
  }

  private toTop(): string {
    return this.cursorRow > 0 ? `\x1b[${this.cursorRow}A` : '';
  }
}
