/**
 * Code points that are one column wide on their own, as string-width measures them: printable
 * ASCII, and the blocks the UI draws its frame from (Latin-1 punctuation, general punctuation,
 * arrows, box drawing and block elements). test/ui/width.test.ts checks every code point these
 * ranges admit against string-width, so the two cannot disagree; anything else is measured.
 */
const NARROW_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e],
  [0xa1, 0xac], // ¡ … ¬ (U+00AD, the soft hyphen, has no width)
  [0xae, 0xff],
  [0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
  [0x2030, 0x205e], // per mille, primes, ‹ › and the rest before the invisible operators
  [0x2190, 0x2199], // arrows
  [0x2500, 0x259f], // box drawing, block elements
];

/** Whether the code unit `code`, alone, is drawn one column wide. */
export function isNarrowCharacter(code: number): boolean {
  for (const [from, to] of NARROW_RANGES) if (code >= from && code <= to) return true;
  return false;
}
