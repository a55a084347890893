// kits/fs secure random ids: read from the kernel's random device (so a start need not load
// node:crypto), falling back to node:crypto when the device is missing or is not a device.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { secureRandomBytes, secureRandomHex, secureRandomUUID } from '../../dist/core/kits/fs/index.js';
import { readKernelRandom } from '../../dist/core/kits/fs/secure-random.js';
import { tempDir } from '../support/project.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('secure random ids', () => {
  it('makes version 4 UUIDs, never the same one twice', () => {
    const ids = Array.from({ length: 5000 }, () => secureRandomUUID());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('hands out each byte of its pool once: consecutive draws share nothing', () => {
    const draws = Array.from({ length: 200 }, () => secureRandomHex(6));
    for (const draw of draws) expect(draw).toMatch(/^[0-9a-f]{12}$/);
    expect(new Set(draws).size).toBe(draws.length);
    // A draw larger than the pool is served whole.
    expect(secureRandomBytes(4096)).toHaveLength(4096);
  });

  it('gives bytes spread over every value (not a constant or a short cycle)', () => {
    const counts = new Array<number>(256).fill(0);
    for (const byte of secureRandomBytes(256 * 200)) counts[byte]!++;
    // 200 expected per value; a uniform source stays far inside these bounds.
    expect(Math.min(...counts)).toBeGreaterThan(100);
    expect(Math.max(...counts)).toBeLessThan(320);
  });

  it('never reads a planted regular file or a missing device: node:crypto gives the bytes', () => {
    const planted = join(tempDir(), 'urandom');
    writeFileSync(planted, Buffer.alloc(64, 7));
    const fromPlanted = readKernelRandom(32, planted);
    expect(fromPlanted).toHaveLength(32);
    expect(fromPlanted.equals(Buffer.alloc(32, 7))).toBe(false);
    expect(readKernelRandom(32, planted).equals(fromPlanted)).toBe(false);
    const fromMissing = readKernelRandom(32, join(tempDir(), 'no-such-device'));
    expect(fromMissing).toHaveLength(32);
    expect(fromMissing.equals(readKernelRandom(32, join(tempDir(), 'no-such-device')))).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('never reads another character device put in its place (/dev/zero, /dev/null)', () => {
    const zeros = readKernelRandom(64, '/dev/zero');
    expect(zeros.equals(Buffer.alloc(64))).toBe(false);
    expect(readKernelRandom(64, '/dev/null')).toHaveLength(64);
  });

  it.skipIf(process.platform !== 'linux')('reads the kernel device where there is one, without loading node:crypto', () => {
    const a = readKernelRandom(32);
    const b = readKernelRandom(32);
    expect(a).toHaveLength(32);
    expect(a.equals(b)).toBe(false);
    // In a fresh process: the device answered, so the fallback never loaded node:crypto.
    const module = new URL('../../dist/core/kits/fs/secure-random.js', import.meta.url).href;
    const script = `const { secureRandomUUID } = await import(${JSON.stringify(module)}); secureRandomUUID(); console.log(process.moduleLoadList.includes('NativeModule crypto'));`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim()).toBe('false');
  });
});
