// Read of a file over 10 MB: a slice (offset/limit) is streamed from the opened file, never refused;
// only a whole read of it is refused, with a message that says how to read a part.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { kernelFor, runOne, text } from './helpers.js';

let root: string;
let kernel: Kernel;
const LINES = 12 * 1024; // 12 MB of 1 KB lines

beforeAll(async () => {
  root = makeProject();
  const lines: string[] = [];
  for (let n = 1; n <= LINES; n++) lines.push(`line ${n} `.padEnd(1023, n === 500 ? 'é' : 'x'));
  writeFileSync(join(root, 'huge.log'), lines.join('\n') + '\n');
  // A huge file whose last line has no newline, and one long line in the middle.
  writeFileSync(join(root, 'tail.log'), `${'y'.repeat(11 * 1024 * 1024)}\nsecond\nthird`);
  ({ kernel } = await kernelFor(root));
}, 120_000);
afterAll(() => kernel?.shutdown());

const read = (input: Record<string, unknown>) => runOne(kernel, 'Read', input);

describe('Read of a file over 10 MB', () => {
  it('streams the requested lines', async () => {
    const result = await read({ file_path: 'huge.log', offset: 100, limit: 3 });
    expect(result.isError).toBeUndefined();
    const shown = text(result).split('\n');
    expect(shown.slice(0, 3).map((l) => l.slice(0, 15))).toEqual(['   100\tline 100', '   101\tline 101', '   102\tline 102']);
    expect(text(result)).toContain('Call Read with offset=103 to read on.');
    expect(result.metadata).toMatchObject({ firstLine: 100, lastLine: 102, lines: 3 });
    // Nothing the model could take as the whole file's checksum.
    expect(result.metadata?.checksum).toBeUndefined();
  });

  it('decodes UTF-8 lines and reads up to the end, counting the lines it saw', async () => {
    const mid = await read({ file_path: 'huge.log', offset: 500, limit: 1 });
    expect(text(mid)).toContain('   500\tline 500 éé');
    const end = await read({ file_path: 'huge.log', offset: LINES - 1, limit: 10 });
    expect(text(end)).toContain(`${LINES}\tline ${LINES} `);
    expect(end.metadata).toMatchObject({ totalLines: LINES, lastLine: LINES });
    const past = await read({ file_path: 'huge.log', offset: LINES + 5, limit: 1 });
    expect(past.isError).toBe(true);
    expect(text(past)).toContain(`which has ${LINES} lines`);
  });

  it('cuts a very long line and keeps a last line without a newline', async () => {
    const result = await read({ file_path: 'tail.log', offset: 1, limit: 5 });
    const shown = text(result).split('\n');
    expect(shown[0]).toMatch(/^ {5}1\ty{2000}… \[line cut: 11534336 bytes\]$/);
    expect(shown[1]).toBe('     2\tsecond');
    expect(shown[2]).toBe('     3\tthird');
    expect(result.metadata).toMatchObject({ totalLines: 3 });
  });

  it('stops a huge limit at the 10 MB budget and says where to go on', async () => {
    const result = await read({ file_path: 'huge.log', offset: 1, limit: 1_000_000_000 });
    expect(result.isError).toBeUndefined();
    const last = result.metadata?.lastLine as number;
    expect(last).toBeGreaterThan(9000);
    expect(last).toBeLessThan(LINES);
    expect(text(result)).toContain(`Call Read with offset=${last + 1} to read on.`);
  });

  it('still refuses a whole read, saying how to read a part', async () => {
    const whole = await read({ file_path: 'huge.log' });
    expect(whole.isError).toBe(true);
    expect(text(whole)).toContain('Pass offset and limit');
  });

  it('keeps the file checks: a slice through a symlink out of the project is refused', async () => {
    const outside = makeProject();
    writeFileSync(join(outside, 'secret.log'), 'z'.repeat(11 * 1024 * 1024));
    symlinkSync(join(outside, 'secret.log'), join(root, 'escape.log'));
    const result = await read({ file_path: 'escape.log', offset: 1, limit: 1 });
    expect(result.isError).toBe(true);
    expect(text(result)).not.toContain('zzzz');
  });
});
