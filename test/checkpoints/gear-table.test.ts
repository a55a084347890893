// The chunking's gear table is written out (plugins/checkpoints/gear-table.ts): each value must stay
// the one it was derived as, or the chunk boundaries, and with them the chunks sessions already
// stored, would move.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chunkEnds } from '../../dist/plugins/checkpoints/blobs.js';
import { GEAR } from '../../dist/plugins/checkpoints/gear-table.js';

describe('the gear table of the content-defined chunking', () => {
  it('holds the first four bytes of SHA-256("gear<i>") for each byte value', () => {
    expect(GEAR).toHaveLength(256);
    GEAR.forEach((value, i) => expect(value, `gear${i}`).toBe(createHash('sha256').update(`gear${i}`).digest().readUInt32LE(0)));
  });

  it('cuts the same bytes at the same places as before it was written out', () => {
    // Pseudo-random bytes, the same on every run: a cut depends only on the bytes before it.
    const data = new Uint8Array(200_000);
    let seed = 1;
    for (let i = 0; i < data.length; i++) data[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    const ends = chunkEnds(data);
    expect(ends.at(-1)).toBe(data.length);
    // What the computed table cut (recorded when the table was written out).
    expect(ends.slice(0, 6)).toEqual(EXPECTED_FIRST_CUTS);
  });
});

const EXPECTED_FIRST_CUTS = [6256, 10813, 43581, 76349, 109117, 141885];
