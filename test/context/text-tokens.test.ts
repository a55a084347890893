// The text estimate counts character classes with regular expressions (core/context/text-tokens.ts);
// its definition is the loop below, one character at a time. Both must agree on every string: ASCII
// of each class, other BMP characters, surrogate pairs and lone surrogates of either half.
import { describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../../dist/core/context/text-tokens.js';

/** The estimate by its definition: letters and digits 4.5 a token, other ASCII 1.5, whitespace 5, other characters 0.9 each (a pair once). */
function byDefinition(text: string): number {
  let word = 0;
  let punctuation = 0;
  let space = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) word++;
    else if (c === 32 || c === 10 || c === 9 || c === 13) space++;
    else if (c < 128) punctuation++;
    else if (c < 0xdc00 || c > 0xdfff) other++;
  }
  return Math.ceil(word / 4.5 + punctuation / 1.5 + space / 5 + other * 0.9);
}

/** A reproducible pseudo-random sequence (xorshift), so a failure names its string. */
function randomStrings(count: number): string[] {
  let seed = 0x9e3779b9;
  const next = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) / 2 ** 32);
  return Array.from({ length: count }, () => {
    let text = '';
    const length = Math.floor(next() * 300);
    for (let i = 0; i < length; i++) {
      const r = next();
      const code = r < 0.5 ? Math.floor(next() * 128) : r < 0.75 ? Math.floor(next() * 0x10000) : r < 0.9 ? 0xd800 + Math.floor(next() * 0x800) : 0x10000 + Math.floor(next() * 0xfffff);
      text += String.fromCodePoint(code);
    }
    return text;
  });
}

describe('the text estimate', () => {
  it('agrees with its definition on every kind of character', () => {
    const fixed = ['', 'a', ' ', '\t\r\n', '{"a":[1,2]}', 'héllo wörld', '日本語', '😀😀', '\ud83d', '\ude00x', 'x\ud83d\ude00y\ud83d', 'A'.repeat(10_000) + '\u0000\u007f\u0080'];
    for (const text of [...fixed, ...randomStrings(2_000)]) expect(estimateTextTokens(text), JSON.stringify(text)).toBe(byDefinition(text));
  });

  it('keeps no state between calls (the expressions are global)', () => {
    const text = 'some words, then {"json": true} and 😀';
    const first = estimateTextTokens(text);
    for (let i = 0; i < 5; i++) expect(estimateTextTokens(text)).toBe(first);
    expect(first).toBe(byDefinition(text));
  });
});
