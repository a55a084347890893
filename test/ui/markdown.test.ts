import { describe, expect, it } from 'vitest';
import { MarkdownStream } from '../../dist/plugins/ui-terminal/render/markdown.js';
import { createHighlighter } from '../../dist/plugins/ui-terminal/render/highlight.js';
import { createStyle } from '../../dist/plugins/ui-terminal/terminal/style.js';
import { stripAnsi, visibleWidth } from '../../dist/plugins/ui-terminal/terminal/width.js';

const color = createStyle(true);
const plain = createStyle(false);

const DOC = [
  '# Title',
  '',
  'Some **bold** and *italic* text with `code` and a [link](https://example.com), long enough to need wrapping at forty columns.',
  '',
  '- first item',
  '  - nested item that is long enough to wrap onto a second line here',
  '1. numbered',
  '- [x] done task',
  '',
  '> a quote',
  '',
  '```ts',
  'const answer = 42; // comment',
  "const s = 'str';",
  '```',
  '',
  '| name | size |',
  '|------|-----:|',
  '| a.ts | 120 |',
  '| longer-name.ts | 7 |',
  '',
  '---',
  'end',
].join('\n');

/** Streams `text` in pieces of `size` characters and returns every committed line. */
function stream(text: string, size: number, width = 40, style = color): string[] {
  const md = new MarkdownStream(style, () => width);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(...md.push(text.slice(i, i + size)));
  out.push(...md.end());
  return out;
}

describe('streaming Markdown', () => {
  it('commits the same lines however the text is chunked: nothing re-flows', () => {
    const whole = stream(DOC, DOC.length);
    for (const size of [1, 2, 3, 7, 16, 61]) expect(stream(DOC, size)).toEqual(whole);
  });

  it('never commits a line wider than the screen', () => {
    for (const width of [20, 40, 79]) for (const line of stream(DOC, 5, width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
  });

  it('renders headings, emphasis, lists, quotes, rules and tables with colour', () => {
    const lines = stream(DOC, 9).map(stripAnsi);
    expect(lines[0]).toBe('Title');
    const prose = lines.join(' ').replace(/\s+/g, ' ');
    expect(prose).toContain('Some bold and italic text with code and a link (https://example.com), long enough');
    expect(lines).toContain('• first item');
    expect(lines.some((l) => l.startsWith('  • nested item'))).toBe(true);
    expect(lines).toContain('• ☑ done task');
    expect(lines).toContain('│ a quote');
    expect(lines).toContain('─'.repeat(40));
    const table = lines.filter((l) => l.startsWith('│') && l.endsWith('│'));
    expect(table).toHaveLength(3);
    expect(new Set(table.map((l) => visibleWidth(l))).size).toBe(1);
  });

  it('colours fenced code by language and keeps the fences', () => {
    const raw = stream(DOC, 4);
    const code = raw.find((l) => stripAnsi(l).startsWith('const answer'))!;
    expect(code).toContain('\x1b[35mconst\x1b[39m');
    expect(code).toContain('\x1b[33m42\x1b[39m');
    expect(code).toContain('\x1b[90m// comment\x1b[39m');
    expect(raw.map(stripAnsi)).toContain('```ts');
  });

  it('leaves Markdown as written with colour off (NO_COLOR), only wrapped', () => {
    const lines = stream(DOC, 3, 40, plain);
    expect(lines[0]).toBe('# Title');
    expect(lines.join('\n')).toContain('**bold**');
    expect(lines.every((l) => !l.includes('\x1b'))).toBe(true);
    const table = lines.filter((l) => l.startsWith('|'));
    expect(new Set(table.map((l) => l.length)).size).toBe(1);
  });

  it('shows the unfinished line provisionally, then commits it once complete', () => {
    const md = new MarkdownStream(color, () => 40);
    expect(md.push('Hello **wor')).toEqual([]);
    expect(md.partial().map(stripAnsi)).toEqual(['Hello **wor']);
    const done = md.push('ld**\n');
    expect(done.map(stripAnsi)).toEqual(['Hello world']);
    expect(md.partial()).toEqual([]);
  });

  it('holds a table back until its last row, since widths depend on every row', () => {
    const md = new MarkdownStream(color, () => 60);
    expect(md.push('| a | b |\n|---|---|\n| 1 | 2 |\n')).toEqual([]);
    expect(md.partial().length).toBe(3);
    expect(md.push('after\n').map(stripAnsi)).toEqual(['│ a   │ b   │', '├─────┼─────┤', '│ 1   │ 2   │', 'after']);
  });

  it('strips escape sequences the model might send', () => {
    const lines = stream('evil \x1b[2J\x1b[31mred\n', 2);
    expect(lines.join('')).not.toContain('\x1b[2J');
    expect(stripAnsi(lines[0]!)).toBe('evil red');
  });
});

describe('highlighter', () => {
  it('carries block comments and multi-line strings across lines', () => {
    const js = createHighlighter('js', color);
    expect(js.line('a /* start')).toBe('a \x1b[90m/*\x1b[39m\x1b[90m start\x1b[39m');
    expect(js.line('still comment */ b')).toMatch(/^\x1b\[90mstill comment \*\/\x1b\[39m b$/);
    const py = createHighlighter('python', color);
    py.line('x = """doc');
    expect(py.line('more"""')).toBe('\x1b[32mmore"""\x1b[39m');
  });

  it('peeks without moving its state, and leaves unknown languages and NO_COLOR alone', () => {
    const js = createHighlighter('ts', color);
    js.peek('/* open');
    expect(js.line('plain')).toBe('plain');
    expect(createHighlighter('brainfuck', color).line('+++')).toBe('+++');
    expect(createHighlighter('ts', plain).line('const x = 1')).toBe('const x = 1');
  });
});
