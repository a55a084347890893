import { eastAsianWidth } from 'get-east-asian-width';

/** ANSI CSI and OSC sequences: zero width on screen. */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/y;
const ZERO_WIDTH = /[\p{Mn}\p{Me}\p{Cf}\u200b\ufe00-\ufe0f]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;

/** Removes ANSI escape sequences. */
export function stripAnsi(text: string): string {
  return text.replace(new RegExp(ANSI.source, 'g'), '');
}

/** Columns one code point takes: 0 for marks and controls, 2 for wide (CJK, emoji), else 1. */
export function charWidth(char: string): number {
  const cp = char.codePointAt(0)!;
  if (cp < 32 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  if (ZERO_WIDTH.test(char)) return 0;
  if (cp >= 0x1f000 && PICTOGRAPHIC.test(char)) return 2;
  return eastAsianWidth(cp);
}

/** A piece of styled text: an escape sequence (no width) or one visible code point. */
export interface Piece {
  text: string;
  width: number;
  escape: boolean;
}

/** Splits styled text into escape sequences and code points. */
export function* pieces(text: string): Generator<Piece> {
  let i = 0;
  while (i < text.length) {
    if (text.charCodeAt(i) === 0x1b) {
      ANSI.lastIndex = i;
      const m = ANSI.exec(text);
      if (m) {
        yield { text: m[0], width: 0, escape: true };
        i += m[0].length;
        continue;
      }
    }
    const cp = text.codePointAt(i)!;
    const char = String.fromCodePoint(cp);
    yield { text: char, width: charWidth(char), escape: false };
    i += char.length;
  }
}

/** Columns the text takes on screen. */
export function visibleWidth(text: string): number {
  let width = 0;
  for (const piece of pieces(text)) width += piece.width;
  return width;
}

/** Tracks which SGR styles are open, so a line cut in the middle of a style can re-open it. */
class SgrState {
  private open: string[] = [];
  feed(seq: string): void {
    if (!seq.endsWith('m') || !seq.startsWith('\x1b[')) return;
    const params = seq.slice(2, -1);
    if (params === '' || params === '0') this.open = [];
    else this.open.push(seq);
  }
  /** Sequences that restore the current style at the start of a new line. */
  get prefix(): string {
    return this.open.join('');
  }
  get active(): boolean {
    return this.open.length > 0;
  }
}

/** Cuts styled text to at most `width` columns, ending with `ellipsis` when cut. */
export function truncate(text: string, width: number, ellipsis = '…'): string {
  if (visibleWidth(text) <= width) return text;
  const room = Math.max(0, width - visibleWidth(ellipsis));
  let out = '';
  let used = 0;
  let styled = false;
  for (const piece of pieces(text)) {
    if (piece.escape) {
      out += piece.text;
      styled = true;
      continue;
    }
    if (used + piece.width > room) break;
    out += piece.text;
    used += piece.width;
  }
  return out + (styled ? '\x1b[0m' : '') + ellipsis;
}

/** Cuts a plain or styled string from the left, keeping its end (paths). */
export function truncateStart(text: string, width: number, ellipsis = '…'): string {
  const plain = stripAnsi(text);
  if (visibleWidth(plain) <= width) return text;
  const chars = [...plain];
  let used = visibleWidth(ellipsis);
  let start = chars.length;
  while (start > 0 && used + charWidth(chars[start - 1]!) <= width) used += charWidth(chars[--start]!);
  return ellipsis + chars.slice(start).join('');
}

/**
 * Word-wraps one line of styled text to `width` columns. Continuation lines start with `indent`
 * (a hanging indent for list items); words longer than a line are broken. Styles cut at a line
 * end are closed there and re-opened on the next line, so every line stands alone.
 */
export function wrapLine(text: string, width: number, indent = ''): string[] {
  if (visibleWidth(text) <= width) return [text];
  const indentWidth = visibleWidth(indent);
  const lines: string[] = [];
  const state = new SgrState();
  let line = '';
  let lineWidth = 0;
  let word = '';
  let wordWidth = 0;
  let space = '';
  let spaceWidth = 0;
  const breakLine = () => {
    lines.push(line + (state.active ? '\x1b[0m' : ''));
    line = indent + state.prefix;
    lineWidth = indentWidth;
    space = '';
    spaceWidth = 0;
  };
  const flushWord = () => {
    if (!word) return;
    if (lineWidth + spaceWidth + wordWidth > width && lineWidth > indentWidth) breakLine();
    line += space + word;
    lineWidth += spaceWidth + wordWidth;
    space = '';
    spaceWidth = 0;
    word = '';
    wordWidth = 0;
  };
  for (const piece of pieces(text)) {
    if (piece.escape) {
      state.feed(piece.text);
      word += piece.text;
      continue;
    }
    if (piece.text === ' ') {
      flushWord();
      space += ' ';
      spaceWidth += 1;
      continue;
    }
    // A word longer than a whole line is placed in line-sized fragments.
    if (wordWidth + piece.width > Math.max(1, width - indentWidth)) flushWord();
    word += piece.text;
    wordWidth += piece.width;
  }
  flushWord();
  if (stripAnsi(line).length > indent.length || !lines.length) lines.push(line + (state.active ? '\x1b[0m' : ''));
  return lines;
}

/** Hard-wraps a line at exactly `width` columns (code, diffs, tool output: spacing matters). */
export function breakLine(text: string, width: number, indent = ''): string[] {
  if (visibleWidth(text) <= width) return [text];
  const lines: string[] = [];
  const state = new SgrState();
  const indentWidth = visibleWidth(indent);
  let line = '';
  let used = 0;
  for (const piece of pieces(text)) {
    if (piece.escape) {
      state.feed(piece.text);
      line += piece.text;
      continue;
    }
    if (used + piece.width > width) {
      lines.push(line + (state.active ? '\x1b[0m' : ''));
      line = indent + state.prefix;
      used = indentWidth;
    }
    line += piece.text;
    used += piece.width;
  }
  lines.push(line);
  return lines;
}

/**
 * Makes text from outside (tool output, file contents, model text) safe to print: escape
 * sequences removed, tabs expanded, other control characters shown as `�`, so nothing can move
 * the cursor or change the terminal's state.
 */
export function sanitize(text: string): string {
  return stripAnsi(text)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      let out = '';
      for (const ch of line) {
        if (ch === '\t') out += ' '.repeat(4 - (visibleWidth(out) % 4));
        else if (/[\x00-\x1f\x7f-\x9f]/.test(ch)) out += '\ufffd';
        else out += ch;
      }
      return out;
    })
    .join('\n');
}
