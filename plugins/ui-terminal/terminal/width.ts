import ansiRegex from 'ansi-regex';
import { createRequire } from 'node:module';
import { isNarrowCharacter } from './narrow.js';

// Widths come from string-width (grapheme clusters, emoji sequences, East Asian width); escape
// sequences are found by ansi-regex, the matcher string-width itself strips them with, so the two
// never disagree about what is visible.
//
// string-width is loaded on the first cluster that needs it: its Unicode property regexes cost
// ~30 ms to load and ~15 ms on the first call, and the UI's own frame (rules, bullets, the prompt
// mark) is single characters of one column (narrow.ts) that it never has to be asked about.
let stringWidthOf: ((text: string) => number) | undefined;
const stringWidth = (text: string): number =>
  (stringWidthOf ??= (createRequire(import.meta.url)('string-width') as { default: (text: string) => number }).default)(text);
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Global; `replace` and `matchAll` never share its `lastIndex` (matchAll works on a copy). */
const ESCAPES = ansiRegex();

/** Removes ANSI escape sequences (CSI, OSC including titles and hyperlinks, DCS...). */
export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, '');
}

/** A piece of styled text: an escape sequence (no width) or one grapheme cluster as the terminal draws it. */
export interface Piece {
  text: string;
  width: number;
  escape: boolean;
}

/** Splits styled text into escape sequences and grapheme clusters. */
export function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  let from = 0;
  for (const match of text.matchAll(ESCAPES)) {
    addVisible(out, text.slice(from, match.index));
    out.push({ text: match[0], width: 0, escape: true });
    from = match.index + match[0].length;
  }
  addVisible(out, text.slice(from));
  return out;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]+/g;

/**
 * Adds the grapheme clusters of `text` with their widths. Segmenting and measuring every character
 * is many times slower than the per-code-point code this replaced, and most terminal text is
 * plain ASCII, so only the stretches around other characters go through Intl.Segmenter and
 * string-width. A stretch takes one ASCII neighbour on each side (a following mark or ZWJ joins
 * the character before it, a Prepend character the one after it); two printable ASCII characters
 * never join.
 */
function addVisible(out: Piece[], text: string): void {
  let ascii = 0;
  for (const [start, end] of stretchesToSegment(text)) {
    for (; ascii < start; ascii++) out.push({ text: text[ascii]!, width: 1, escape: false });
    for (const { segment } of graphemes.segment(text.slice(start, end))) out.push({ text: segment, width: clusterWidth(segment), escape: false });
    ascii = end;
  }
  for (; ascii < text.length; ascii++) out.push({ text: text[ascii]!, width: 1, escape: false });
}

/** The `[start, end)` stretches holding anything but printable ASCII, each with its neighbours, merged where they touch. */
function stretchesToSegment(text: string): Array<[number, number]> {
  const stretches: Array<[number, number]> = [];
  for (const match of text.matchAll(NOT_PRINTABLE_ASCII)) {
    const start = Math.max(0, match.index - 1);
    const end = Math.min(text.length, match.index + match[0].length + 1);
    const last = stretches[stretches.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else stretches.push([start, end]);
  }
  return stretches;
}

/** Widths of clusters seen so far: the same few CJK characters and emoji recur through a transcript. */
const widths = new Map<string, number>();

function clusterWidth(cluster: string): number {
  if (cluster.length === 1 && isNarrowCharacter(cluster.charCodeAt(0))) return 1;
  let width = widths.get(cluster);
  if (width === undefined) {
    width = stringWidth(cluster);
    if (widths.size >= 10_000) widths.clear();
    widths.set(cluster, width);
  }
  return width;
}

/** Columns the text takes on screen. */
export function visibleWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
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
  const clusters = [...graphemes.segment(plain)].map((g) => g.segment);
  let used = visibleWidth(ellipsis);
  let start = clusters.length;
  while (start > 0 && used + clusterWidth(clusters[start - 1]!) <= width) used += clusterWidth(clusters[--start]!);
  return ellipsis + clusters.slice(start).join('');
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
