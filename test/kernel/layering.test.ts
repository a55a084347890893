// The layers of the source tree (docs: DESIGN.md "Layout"): core imports neither config/, bin/ nor
// plugins/; kits and the test kit depend on the rest of core, never the reverse; a kit reaches
// another kit only through its index, the same public face plugins see.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every TypeScript source under core/, relative to the root, with `/` separators. */
const CORE_FILES = readdirSync(join(ROOT, 'core'), { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.[cm]?ts$/.test(f))
  .map((f) => `core/${f.split(sep).join('/')}`);

/** Static imports and re-exports (`import type` too), dynamic `import('…')`, and `new URL('…', import.meta.url)`. */
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)['"](\.{1,2}\/[^'"]*)['"]/g;

/** What each core file imports from the tree, as root-relative paths. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8');
  return [...source.matchAll(SPECIFIERS)].map((m) => relative(ROOT, resolve(ROOT, dirname(file), m[1]!)).split(sep).join('/'));
}

const EDGES = CORE_FILES.flatMap((file) => importsOf(file).map((target) => ({ file, target })));
const show = (edges: typeof EDGES) => edges.map((e) => `${e.file} -> ${e.target}`);

/** The kit a path belongs to (`core/kits/<name>/…`), if any. */
const kitOf = (path: string) => /^core\/kits\/([^/]+)\//.exec(path)?.[1];
const inTestKit = (path: string) => path.startsWith('core/testing/');

describe('layering', () => {
  it('finds the imports it checks', () => {
    // A parser that matched nothing would pass every rule below.
    expect(CORE_FILES.length).toBeGreaterThan(50);
    expect(EDGES.some((e) => e.file === 'core/kernel/kernel.ts' && e.target === 'core/kernel/hooks.js')).toBe(true);
  });

  it('keeps config/, bin/ and plugins/ out of core', () => {
    const outside = EDGES.filter((e) => /^(config|bin|plugins)(\/|$)/.test(e.target));
    expect(show(outside)).toEqual([]);
  });

  it('keeps kits and the test kit out of the rest of core: they depend on it, never the reverse', () => {
    const upward = EDGES.filter((e) => !kitOf(e.file) && !inTestKit(e.file) && (kitOf(e.target) || inTestKit(e.target)));
    expect(show(upward)).toEqual([]);
  });

  it('lets a kit (or the test kit) reach another kit only through its index', () => {
    const internals = EDGES.filter((e) => {
      const to = kitOf(e.target);
      return to !== undefined && to !== kitOf(e.file) && e.target !== `core/kits/${to}/index.js`;
    });
    expect(show(internals)).toEqual([]);
  });

  it('keeps the test kit out of the kits', () => {
    expect(show(EDGES.filter((e) => kitOf(e.file) && inTestKit(e.target)))).toEqual([]);
  });
});
