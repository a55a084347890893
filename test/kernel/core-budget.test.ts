// A kernel you can read in one sitting (issue #16): core/ outside the kits and the test kit stays
// within 4,000 lines of code, the kernel itself within 1,500, and no source file grows past 400
// lines. Helpers that only some plugins need belong in a kit; this keeps them from drifting back.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** TypeScript sources under `dir` (`.ts`, `.cts`, `.mts`) (root-relative, `/` separators). */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.[cm]?ts$/.test(f))
    .map((f) => `${dir}/${f.split(sep).join('/')}`);
}

/** Lines of code as cloc counts them: neither blank nor only a comment (`//`, or inside `/* … *\/`). */
export function codeLines(source: string): number {
  let count = 0;
  let inBlock = false;
  for (const raw of source.split('\n')) {
    let line = raw.trim();
    if (inBlock) {
      const end = line.indexOf('*/');
      if (end < 0) continue;
      inBlock = false;
      line = line.slice(end + 2).trim();
    }
    while (line.startsWith('/*')) {
      const end = line.indexOf('*/', 2);
      if (end < 0) {
        inBlock = true;
        line = '';
        break;
      }
      line = line.slice(end + 2).trim();
    }
    if (line !== '' && !line.startsWith('//')) count++;
  }
  return count;
}

const count = (files: string[]) => files.reduce((sum, file) => sum + codeLines(readFileSync(join(ROOT, file), 'utf8')), 0);
const CORE = sources('core');
const OUTSIDE_KITS = CORE.filter((f) => !f.startsWith('core/kits/') && !f.startsWith('core/testing/'));


describe('the size of core', () => {
  it('counts code, not blank lines or comments', () => {
    expect(codeLines('const a = 1;\n\n// why\n/**\n * doc\n */\nconst b = 2; // trailing\n/* one */ const c = 3;\n')).toBe(3);
    // A counter that found nothing would pass every budget below.
    expect(OUTSIDE_KITS.length).toBeGreaterThan(40);
    expect(OUTSIDE_KITS).toContain('core/kernel/kernel.ts');
  });

  it('is at most 4,000 lines of code outside core/kits/ and core/testing/', () => {
    const total = count(OUTSIDE_KITS);
    console.log(`core outside kits and testing: ${total} lines of code`);
    expect(total).toBeLessThanOrEqual(4000);
  });

  it('keeps the kernel itself (core/kernel/) at most 1,500 lines of code', () => {
    const total = count(OUTSIDE_KITS.filter((f) => f.startsWith('core/kernel/')));
    console.log(`core/kernel: ${total} lines of code`);
    expect(total).toBeLessThanOrEqual(1500);
  });

  it('has no source file in core/ or plugins/ over 400 lines', () => {
    const long = [...CORE, ...sources('plugins')]
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 400);
    expect(long).toEqual([]);
  });
});
