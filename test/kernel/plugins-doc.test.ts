// docs/plugins.md compiles: every ```ts sample is type-checked against the built package's types,
// as a plugin author's code importing '@assistant-cli/assistant' and '@assistant-cli/assistant/testing' would be.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tsc } from '../support/packed.js';

/**
 * The ```ts blocks of a markdown file, with the line each block's code starts on, and the file name
 * a `<!-- file: name.ts -->` line just above gives it (so another sample can import it).
 */
function tsSamples(markdown: string): Array<{ line: number; code: string; file?: string }> {
  const samples: Array<{ line: number; code: string; file?: string }> = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end]!.trim() !== '```') end++;
    const file = lines[i - 1]?.match(/^<!-- file: ([\w.-]+\.ts) -->$/)?.[1];
    samples.push({ line: start + 1, code: lines.slice(start, end).join('\n') + '\n', ...(file ? { file } : {}) });
    i = end;
  }
  return samples;
}

/** A sample that must fail, so a harness that checks nothing cannot pass. */
const CONTROL = `import { definePlugin } from '@assistant-cli/assistant';
export default definePlugin({ name: 'control', apply: (kernel) => kernel.hooks.permision.tap('control', () => undefined) });
`;

// Under node_modules/.cache, so the samples' other imports (vitest, node types) resolve from ours.
const home = join(ROOT, 'node_modules/.cache/plugins-doc');
mkdirSync(home, { recursive: true });
const dir = realpathSync(mkdtempSync(join(home, 'check-'))); // resolved: tsc names files relative to its (real) cwd
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/plugins.md', () => {
  it('has code samples that compile against the built package types', async () => {
    const samples = tsSamples(readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8'));
    expect(samples.length).toBeGreaterThanOrEqual(8);
    const fileOf = (i: number) => samples[i]!.file ?? `sample-${i}.ts`;
    samples.forEach((sample, i) => writeFileSync(join(dir, fileOf(i)), sample.code));
    writeFileSync(join(dir, 'control.ts'), CONTROL);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023'],
          types: ['node'],
          skipLibCheck: true,
          paths: {
            '@assistant-cli/assistant': [join(ROOT, 'dist/core/index.d.ts')],
            '@assistant-cli/assistant/testing': [join(ROOT, 'dist/config/test-kit.d.ts')],
            '@assistant-cli/assistant/kits/*': [join(ROOT, 'dist/core/kits/*/index.d.ts')],
          },
        },
        files: [...samples.map((_, i) => fileOf(i)), 'control.ts'],
      }),
    );
    const { output } = await tsc(['-p', join(dir, 'tsconfig.json')], dir);
    // By file name: tsc prints a path relative to where it runs when node_modules is a symlink.
    const errors = output
      .split('\n')
      .filter((l) => /error TS\d+/.test(l))
      .map((l) => l.replace(/^.*[\\/](?=[\w.-]+\.ts\()/, ''));
    // Point at the doc's own lines: sample-N.ts(L,C) is line (start of block N + L - 1).
    const inDoc = errors
      .filter((e) => !e.startsWith('control.ts'))
      .map((e) => e.replace(/^([\w.-]+\.ts)\((\d+),(\d+)\)/, (m, file: string, l: string, c: string) => {
        const n = samples.findIndex((_, i) => fileOf(i) === file);
        return n < 0 ? m : `docs/plugins.md:${samples[n]!.line + Number(l) - 1}:${c}`;
      }));
    expect(inDoc).toEqual([]);
    expect(errors).toEqual([expect.stringMatching(/^control\.ts\(2,\d+\): error TS2551: Property 'permision' does not exist.*Did you mean 'permission'\?/)]);
  });
});
