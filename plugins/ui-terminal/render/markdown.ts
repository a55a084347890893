import type { Style } from '../terminal/style.js';
import { breakLine, sanitize, visibleWidth, wrapLine } from '../terminal/width.js';
import { createHighlighter, type Highlighter } from './highlight.js';
import { renderInline } from './inline.js';

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+#.-]*)/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*(:?-{2,}:?\s*)?\|?\s*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const QUOTE = /^(\s*)>\s?(.*)$/;
const LIST = /^(\s*)([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?(.*)$/;

/**
 * Renders Markdown as it streams, one complete line at a time: a line, once rendered, is final
 * (it goes to the scrollback and is never redrawn), so nothing re-flows or flickers. Only the
 * unfinished last line is shown provisionally. Tables are held back until their last row, since
 * column widths depend on every row.
 */
export class MarkdownStream {
  private pending = '';
  private fence: { marker: string; highlighter: Highlighter } | undefined;
  private table: string[] = [];

  constructor(
    private readonly style: Style,
    private readonly width: () => number,
  ) {}

  /** Feeds streamed text; returns the lines completed by it, rendered. */
  push(text: string): string[] {
    this.pending += text;
    const out: string[] = [];
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      out.push(...this.line(sanitize(this.pending.slice(0, newline))));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    return out;
  }

  /** The unfinished last line (and a table in progress), rendered provisionally for the live area. */
  partial(): string[] {
    const pending = sanitize(this.pending);
    const rows = this.table.map((r) => this.style.dim(r));
    if (!pending) return rows.flatMap((r) => breakLine(r, this.width()));
    if (this.fence) return [...rows, ...breakLine(this.fence.highlighter.peek(pending), this.width())];
    if (TABLE_ROW.test(pending) || FENCE.test(pending)) return [...rows, ...breakLine(this.style.dim(pending), this.width())];
    return [...rows, ...this.block(pending)];
  }

  /** Ends the message: renders what is left and resets for the next one. */
  end(): string[] {
    const out = this.pending ? this.line(sanitize(this.pending)) : [];
    out.push(...this.flushTable());
    this.pending = '';
    this.fence = undefined;
    return out;
  }

  /** True when nothing is buffered. */
  get idle(): boolean {
    return !this.pending && !this.table.length;
  }

  private line(raw: string): string[] {
    const width = this.width();
    if (this.fence) {
      const close = FENCE.exec(raw);
      if (close && close[2]!.startsWith(this.fence.marker) && !close[3]) {
        this.fence = undefined;
        return [this.style.dim(raw)];
      }
      return breakLine(this.fence.highlighter.line(raw), width);
    }
    if (TABLE_ROW.test(raw)) {
      this.table.push(raw);
      return [];
    }
    const out = this.flushTable();
    const open = FENCE.exec(raw);
    if (open) {
      this.fence = { marker: open[2]!, highlighter: createHighlighter(open[3] ?? '', this.style) };
      out.push(...breakLine(this.style.dim(raw), width));
      return out;
    }
    out.push(...this.block(raw));
    return out;
  }

  /** Renders one line outside code and tables: headings, rules, quotes, list items, paragraphs. */
  private block(raw: string): string[] {
    const { style } = this;
    const width = this.width();
    if (!raw.trim()) return [''];
    if (!style.enabled) {
      const list = LIST.exec(raw);
      return wrapLine(raw, width, list ? ' '.repeat(list[1]!.length + list[2]!.length + 1) : /^\s*/.exec(raw)![0]);
    }
    const heading = HEADING.exec(raw);
    if (heading) {
      const text = renderInline(heading[2]!, style);
      const styled = heading[1]!.length === 1 ? style.bold(style.underline(text)) : heading[1]!.length === 2 ? style.bold(text) : style.bold(style.italic(text));
      return wrapLine(styled, width);
    }
    if (RULE.test(raw)) return [style.gray('─'.repeat(Math.min(width, 60)))];
    const quote = QUOTE.exec(raw);
    if (quote) {
      const bar = quote[1] + style.gray('│ ');
      return wrapLine(bar + style.italic(renderInline(quote[2]!, style)), width, bar);
    }
    const list = LIST.exec(raw);
    if (list) {
      const [, indent = '', marker = '', task, text = ''] = list;
      const bullet = /\d/.test(marker) ? marker : '•';
      const box = task ? (/x/i.test(task) ? style.green('☑ ') : '☐ ') : '';
      const hang = ' '.repeat(indent.length + visibleWidth(bullet) + 1 + (task ? 2 : 0));
      return wrapLine(`${indent}${style.gray(bullet)} ${box}${renderInline(text, style)}`, width, hang);
    }
    const lead = /^\s*/.exec(raw)![0];
    return wrapLine(renderInline(raw, style), width, lead);
  }

  /** Renders buffered table rows with aligned columns, or row by row when too wide for the screen. */
  private flushTable(): string[] {
    if (!this.table.length) return [];
    const rows = this.table;
    this.table = [];
    const { style } = this;
    const width = this.width();
    const cells = rows.filter((r) => !TABLE_RULE.test(r)).map((r) => splitRow(r).map((c) => renderInline(c, style)));
    const columns = Math.max(...cells.map((r) => r.length));
    const widths = Array.from({ length: columns }, (_, i) => Math.max(3, ...cells.map((r) => visibleWidth(r[i] ?? ''))));
    const total = widths.reduce((a, b) => a + b, 0) + 3 * columns + 1;
    if (total > width) return rows.flatMap((r) => wrapLine(renderInline(r, style), width));
    const bar = style.enabled ? '│' : '|';
    const line = (row: string[], header: boolean) =>
      bar + widths.map((w, i) => ' ' + pad(header ? style.bold(row[i] ?? '') : (row[i] ?? ''), w) + ' ').join(bar) + bar;
    const rule = (style.enabled ? '├' : '|') + widths.map((w) => (style.enabled ? '─' : '-').repeat(w + 2)).join(style.enabled ? '┼' : '|') + (style.enabled ? '┤' : '|');
    const hasHeader = rows.length > 1 && TABLE_RULE.test(rows[1]!);
    const out: string[] = [];
    cells.forEach((row, i) => {
      out.push(line(row, hasHeader && i === 0));
      if (hasHeader && i === 0) out.push(style.gray(rule));
    });
    return out;
  }
}

function splitRow(row: string): string[] {
  const trimmed = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  return trimmed.split(/(?<!\\)\|/).map((c) => c.trim());
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleWidth(text)));
}
