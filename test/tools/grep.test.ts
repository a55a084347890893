import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { allowAll, inline, kernelFor, mustHaveTools, runOne, text } from './helpers.js';

const hasRipgrep = spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRipgrep && !mustHaveTools) console.warn('ripgrep (rg) is not installed: the ripgrep half of the Grep tests is skipped');

/** Sets the tools-fs Grep backend through the plugin's options, as a user would in .assistantrc. */
async function kernelWith(root: string, backend: 'ripgrep' | 'scanner'): Promise<Kernel> {
  const { kernel } = await kernelFor(root, [allowAll], { config: { plugins: [['tools-fs', { grepBackend: backend }]] } });
  return kernel;
}

const QUERIES: Record<string, unknown>[] = [
  { pattern: 'TODO' },
  { pattern: 'todo', '-i': true, output_mode: 'content' },
  { pattern: 'fn\\s+\\w+', output_mode: 'content', '-C': 1 },
  { pattern: 'fn', output_mode: 'content', '-B': 2, '-n': false },
  { pattern: 'TODO', output_mode: 'count' },
  { pattern: 'TODO', glob: '*.rs' },
  { pattern: 'TODO', glob: '!*.rs' },
  { pattern: 'TODO', glob: '*.{md,txt}' },
  { pattern: 'TODO', type: 'rust' },
  { pattern: 'TODO', type: 'md', output_mode: 'content' },
  { pattern: 'TODO', path: 'src', output_mode: 'content' },
  { pattern: 'TODO', path: 'src/lib.rs', output_mode: 'content', '-A': 1 },
  { pattern: 'TODO', output_mode: 'content', head_limit: 2 },
  { pattern: 'ignored' },
  { pattern: 'nothing-matches-this' },
  { pattern: 'secret', glob: '*.log' },
];

describe('Grep', () => {
  let root: string;
  const kernels: Kernel[] = [];
  beforeAll(() => {
    root = makeProject({
      'src/lib.rs': 'fn main() {\n    // TODO: wire up\n    helper();\n}\n\nfn helper() {\n    // todo lower case\n}\n',
      'src/util.rs': '// TODO one\n// TODO two\n',
      'docs/guide.md': '# Guide\nTODO: write the guide\n',
      'notes.txt': 'TODO in text\r\nsecond line\r\n',
      '.hidden/config': 'TODO hidden\n',
      '.gitignore': 'build/\n*.log\n',
      'build/out.rs': 'TODO ignored\n',
      'app.log': 'secret ignored TODO\n',
      'sub/.gitignore': 'local.txt\n',
      'sub/local.txt': 'TODO ignored by a nested gitignore\n',
      'sub/kept.txt': 'TODO kept\n',
    });
    writeFileSync(join(root, 'binary.dat'), Buffer.concat([Buffer.from('TODO '), Buffer.from([0, 1, 2])]));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'HEAD'), 'TODO not searched\n');
    // Distinct modification times, so "newest first" is well defined.
    ['src/lib.rs', 'src/util.rs', 'docs/guide.md', 'notes.txt', '.hidden/config', 'sub/kept.txt', 'app.log'].forEach((file, i) => {
      const t = new Date(Date.now() - (i + 1) * 60_000);
      utimesSync(join(root, file), t, t);
    });
  });
  afterAll(async () => {
    for (const k of kernels) await k.shutdown();
  });

  it('searches with the built-in scanner: gitignore (nested too), hidden files, no binaries, no .git', async () => {
    const kernel = await kernelWith(root, 'scanner');
    kernels.push(kernel);
    const files = await runOne(kernel, 'Grep', { pattern: 'TODO' });
    expect(text(files)).toBe('Found 6 files\nsrc/lib.rs\nsrc/util.rs\ndocs/guide.md\nnotes.txt\n.hidden/config\nsub/kept.txt');
    expect(files.metadata?.backend).toBe('scanner');
    const context = await runOne(kernel, 'Grep', { pattern: 'fn\\s+\\w+', output_mode: 'content', '-C': 1 });
    expect(text(context)).toBe('src/lib.rs:1:fn main() {\nsrc/lib.rs-2-    // TODO: wire up\n--\nsrc/lib.rs-5-\nsrc/lib.rs:6:fn helper() {\nsrc/lib.rs-7-    // todo lower case');
    const count = await runOne(kernel, 'Grep', { pattern: 'TODO', output_mode: 'count' });
    expect(text(count)).toContain('Found 7 matching lines in 6 files\n.hidden/config:1');
    expect(text(await runOne(kernel, 'Grep', { pattern: 'TODO', type: 'nope' }))).toContain('unknown type "nope"');
    const badRegex = await runOne(kernel, 'Grep', { pattern: 'fn(' });
    expect(badRegex.isError).toBe(true);
    expect(text(badRegex)).toContain('escape special characters');
  });

  it.skipIf(!hasRipgrep && !mustHaveTools)('gives the same output with ripgrep as with the built-in scanner', async () => {
    const rg = await kernelWith(root, 'ripgrep');
    const scanner = await kernelWith(root, 'scanner');
    kernels.push(rg, scanner);
    for (const query of QUERIES) {
      const [a, b] = [await runOne(rg, 'Grep', query), await runOne(scanner, 'Grep', query)];
      expect(a.metadata?.backend).toBe('ripgrep');
      expect({ query, output: text(b) }).toEqual({ query, output: text(a) });
    }
  });

  it('finds every match when the scanner splits a big tree across threads', async () => {
    const big = makeProject();
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(big, `d${d}`));
      for (let f = 0; f < 80; f++) writeFileSync(join(big, `d${d}`, `f${f}.txt`), f % 17 === 0 ? `needle ${d}/${f}\n` : 'hay\n');
    }
    const kernel = await kernelWith(big, 'scanner');
    kernels.push(kernel);
    const result = await runOne(kernel, 'Grep', { pattern: 'needle', output_mode: 'count' });
    expect(text(result)).toMatch(/^Found 150 matching lines in 150 files\n/);
    const lines = text(result).split('\n').slice(1);
    expect(lines).toEqual([...lines].sort());
  });
});

describe('Grep through the cache', () => {
  it('is not served stale after our own write', async () => {
    const root = makeProject({ 'a.txt': 'apple\n' });
    const { kernel } = await kernelFor(root, [allowAll, inline('noop', () => undefined)]);
    try {
      expect(text(await runOne(kernel, 'Grep', { pattern: 'banana' }))).toContain('No matches');
      await runOne(kernel, 'Write', { file_path: 'b.txt', content: 'banana\n' });
      expect(text(await runOne(kernel, 'Grep', { pattern: 'banana' }))).toBe('Found 1 file\nb.txt');
    } finally {
      await kernel.shutdown();
    }
  });
});
