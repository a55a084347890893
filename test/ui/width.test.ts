// Terminal widths follow grapheme clusters (what a terminal draws as one glyph), and every kind of
// escape sequence counts as nothing.
import { execFileSync } from 'node:child_process';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { isNarrowCharacter } from '../../dist/plugins/ui-terminal/terminal/narrow.js';
import { breakLine, sanitize, stripAnsi, truncate, truncateStart, visibleWidth, wrapLine } from '../../dist/plugins/ui-terminal/terminal/width.js';

const FAMILY = '👨\u200d👩\u200d👧';
const FLAG = '🇯🇵';
const THUMB = '👍🏽';

describe('grapheme widths', () => {
  it('counts an emoji sequence as the one double-width glyph it is drawn as', () => {
    expect(visibleWidth(FAMILY)).toBe(2);
    expect(visibleWidth(FLAG)).toBe(2);
    expect(visibleWidth(THUMB)).toBe(2);
    expect(visibleWidth('❤️')).toBe(2);
    expect(visibleWidth(`a${FAMILY}b`)).toBe(4);
  });

  it('never cuts inside a cluster when truncating, wrapping or breaking', () => {
    expect(truncate(`${FAMILY}abc`, 3)).toBe(`${FAMILY}…`);
    expect(truncateStart(`abc${FLAG}${FLAG}`, 5)).toBe(`…${FLAG}${FLAG}`);
    expect(breakLine(FLAG.repeat(3), 4)).toEqual([FLAG + FLAG, FLAG]);
    const wrapped = wrapLine(`${THUMB} ${THUMB} ${THUMB}`, 5);
    expect(wrapped).toEqual([`${THUMB} ${THUMB}`, THUMB]);
    for (const line of wrapped) expect(visibleWidth(line)).toBeLessThanOrEqual(5);
  });
});

describe('escape sequences', () => {
  it('are zero-width whatever their form: OSC titles with spaces, hyperlinks, private and intermediate CSI', () => {
    const title = '\x1b]0;my window title\x07';
    const link = '\x1b]8;;https://example.com/a?b=1\x1b\\docs\x1b]8;;\x1b\\';
    const kitty = '\x1b[>4;2m';
    const cursorShape = '\x1b[2 q';
    expect(visibleWidth(`${title}ok`)).toBe(2);
    expect(visibleWidth(link)).toBe(4);
    expect(visibleWidth(`${kitty}${cursorShape}x`)).toBe(1);
    expect(stripAnsi(`${title}${kitty}${cursorShape}a${link}`)).toBe('adocs');
  });

  it('are removed from outside text, leaving no fragment of them on screen', () => {
    expect(sanitize('\x1b]0;pwned by a file\x07hello')).toBe('hello');
    expect(sanitize('a\x1b[>4;2mb\x1b[2 qc')).toBe('abc');
  });

  it('are kept whole when styled text is cut', () => {
    const styled = `\x1b[38;2;255;0;0m${'x'.repeat(10)}\x1b[0m`;
    expect(truncate(styled, 5)).toBe('\x1b[38;2;255;0;0mxxxx\x1b[0m…');
    expect(breakLine(styled, 4).map(stripAnsi)).toEqual(['xxxx', 'xxxx', 'xx']);
  });
});

describe('mixed text', () => {
  it('keeps a mark with its letter next to wide characters, in every position', () => {
    const accented = 'e\u0301';
    for (const text of [`日${accented}日`, `日a${accented}`, `${accented}日`, `ab${accented}`, `日${accented}`, `x${FLAG}y${accented}z日`]) {
      const cut = breakLine(text, 1);
      expect(cut).toContain(accented);
      expect(cut.join('')).toBe(text);
    }
    expect(visibleWidth(`日a${accented}b`)).toBe(5);
  });
});

describe('string-width, loaded on demand', () => {
  it('agrees with every character the UI measures without it', () => {
    const admitted: number[] = [];
    const disagree: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (!isNarrowCharacter(code)) continue;
      admitted.push(code);
      const width = stringWidth(String.fromCharCode(code));
      if (width !== 1) disagree.push(`U+${code.toString(16)}: ${width}`);
    }
    expect(admitted.length).toBeGreaterThan(400);
    expect(disagree).toEqual([]);
  });

  it("is not loaded for the UI's own frame, and is for text that needs it", () => {
    // A fresh process: which modules loaded depends on what ran before.
    const script = `
      import { createRequire } from 'node:module';
      const cache = createRequire(import.meta.url).cache;
      const loaded = () => Object.keys(cache).some((file) => file.includes('/string-width/'));
      const w = await import(${JSON.stringify(new URL('../../dist/plugins/ui-terminal/terminal/width.js', import.meta.url).href)});
      const frame = [w.visibleWidth('─'.repeat(80)), w.wrapLine(' › ' + 'word '.repeat(30), 40).length, w.truncate('a · b · c — “d” …', 8), loaded()];
      const wide = [w.visibleWidth('日本 › é'), loaded()];
      console.log(JSON.stringify({ frame, wide }));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { frame: unknown[]; wide: unknown[] };
    expect(out.frame).toEqual([80, 4, 'a · b ·…', false]);
    expect(out.wide).toEqual([8, true]);
  });
});
