import { describe, expect, it } from 'vitest';
import { createStyle, colorEnabled } from '../../dist/plugins/ui-terminal/terminal/style.js';
import { breakLine, sanitize, stripAnsi, truncate, truncateStart, visibleWidth, wrapLine } from '../../dist/plugins/ui-terminal/terminal/width.js';
import { KeyDecoder } from '../../dist/plugins/ui-terminal/terminal/keys.js';

const color = createStyle(true);

describe('colour', () => {
  it('is off for NO_COLOR, TERM=dumb and non-terminals, and forced on by FORCE_COLOR', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
  });

  it('leaves text untouched when disabled, and nests styles that share a closer', () => {
    expect(createStyle(false).bold(createStyle(false).red('x'))).toBe('x');
    const nested = color.bold(`a ${color.dim('b')} c`);
    // After the inner dim closes (22), bold must be re-opened for " c".
    expect(nested).toBe('\x1b[1ma \x1b[2mb\x1b[22m\x1b[1m c\x1b[22m');
  });
});

describe('width', () => {
  it('counts columns, not code units: wide CJK and emoji, zero-width marks and escapes', () => {
    expect(visibleWidth('abc')).toBe(3);
    expect(visibleWidth('日本')).toBe(4);
    expect(visibleWidth('👍')).toBe(2);
    expect(visibleWidth('e\u0301')).toBe(1);
    expect(visibleWidth(color.red('abc'))).toBe(3);
  });

  it('word-wraps without breaking words, with a hanging indent', () => {
    const text = 'the quick brown fox jumps over the lazy dog again and again';
    const lines = wrapLine(text, 20, '  ');
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(20);
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    expect(lines.map((l) => l.trim()).join(' ')).toBe(text);
  });

  it('breaks a word longer than a line, and re-opens a style cut at a line end', () => {
    const lines = wrapLine(color.bold('x'.repeat(25)), 10);
    expect(lines.map(stripAnsi)).toEqual(['xxxxxxxxxx', 'xxxxxxxxxx', 'xxxxx']);
    for (const line of lines.slice(1)) expect(line.startsWith('\x1b[1m')).toBe(true);
    for (const line of lines.slice(0, -1)) expect(line.endsWith('\x1b[0m')).toBe(true);
  });

  it('hard-breaks code at the exact width', () => {
    expect(breakLine('abcdefgh', 3).map(stripAnsi)).toEqual(['abc', 'def', 'gh']);
    expect(breakLine('日本語', 4).map(visibleWidth)).toEqual([4, 2]);
  });

  it('truncates from either end with an ellipsis', () => {
    expect(truncate('abcdefgh', 5)).toBe('abcd…');
    expect(truncate('abc', 5)).toBe('abc');
    expect(truncateStart('/home/me/projects/app', 10)).toBe('…jects/app');
  });

  it('sanitizes outside text: escapes removed, tabs expanded, controls replaced', () => {
    expect(sanitize('\x1b[2Jhi\x1b]0;title\x07')).toBe('hi');
    expect(sanitize('a\tb')).toBe('a   b');
    expect(sanitize('a\x07b\r\nc')).toBe('a\ufffdb\nc');
  });
});

describe('key decoder', () => {
  const decode = (...chunks: string[]) => {
    const d = new KeyDecoder();
    const keys = chunks.flatMap((c) => d.push(c));
    return [...keys, ...d.flush()];
  };

  it('decodes arrows, editing keys, ctrl letters and text', () => {
    expect(decode('\x1b[A\x1b[B\x1b[C\x1b[D\x1bOH\x1b[F\x1b[3~\x1b[Z')).toEqual(
      ['up', 'down', 'right', 'left', 'home', 'end', 'delete', 'shift-tab'].map((name) => ({ type: 'key', name })),
    );
    expect(decode('hi\x03\x7f\t')).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'ctrl', letter: 'c' },
      { type: 'key', name: 'backspace' },
      { type: 'key', name: 'tab' },
    ]);
    expect(decode('\x1b[1;5C\x1b[1;3D\x1b\x7f')).toEqual([
      { type: 'key', name: 'word-right' },
      { type: 'key', name: 'word-left' },
      { type: 'key', name: 'word-backspace' },
    ]);
  });

  it('has documented newline keys: Ctrl+J, Alt+Enter, and modified Enter from kitty / xterm', () => {
    for (const seq of ['\n', '\x1b\r', '\x1b[13;2u', '\x1b[27;2;13~']) expect(decode(seq)).toEqual([{ type: 'key', name: 'newline' }]);
    expect(decode('\r')).toEqual([{ type: 'key', name: 'enter' }]);
  });

  it('keeps a bracketed paste whole, newlines included, even split across reads', () => {
    expect(decode('\x1b[200~line one\r\nline', ' two\x1b[20', '1~x')).toEqual([
      { type: 'paste', text: 'line one\nline two' },
      { type: 'text', text: 'x' },
    ]);
  });

  it('treats a multi-line burst from a terminal without bracketed paste as a paste', () => {
    expect(decode('first\rsecond')).toEqual([{ type: 'paste', text: 'first\nsecond' }]);
  });

  it('holds a lone ESC until flushed, and completes a sequence split across reads', () => {
    const d = new KeyDecoder();
    expect(d.push('\x1b')).toEqual([]);
    expect(d.pending).toBe(true);
    expect(d.flush()).toEqual([{ type: 'key', name: 'escape' }]);
    expect(d.push('\x1b[')).toEqual([]);
    expect(d.push('A')).toEqual([{ type: 'key', name: 'up' }]);
  });
});
