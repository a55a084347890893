// Which Grep backend runs when the config does not choose (issue #18): ripgrep when PATH has an
// executable `rg`, found by a lookup rather than by running `rg --version`; the built-in scanner
// when it has none, or when the `rg` found cannot start. Each case gets its own pool, whose worker
// takes PATH as it is when the thread starts.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject, tempDir } from '../support/project.js';
import { allowAll, kernelFor, mustHaveTools, runOne, text } from './helpers.js';

const rg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
if (!rg && !mustHaveTools) console.warn('ripgrep (rg) is not installed: the ripgrep case of the backend choice is skipped');

const savedPath = process.env.PATH;
const kernels: Kernel[] = [];
afterEach(async () => {
  process.env.PATH = savedPath;
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

/** Greps a small project with PATH as given, the backend left to the tool. */
async function grepWithPath(path: string) {
  const root = makeProject();
  writeFileSync(join(root, 'a.txt'), 'needle\n');
  process.env.PATH = path;
  const { kernel } = await kernelFor(root, [allowAll]);
  kernels.push(kernel);
  return runOne(kernel, 'Grep', { pattern: 'needle' });
}

/** A folder holding an `rg` that exists and is executable but cannot start (its interpreter is missing). */
function brokenRipgrep(): string {
  const dir = join(tempDir(), 'bin');
  mkdirSync(dir);
  writeFileSync(join(dir, 'rg'), '#!/nonexistent/interpreter\n');
  chmodSync(join(dir, 'rg'), 0o755);
  return dir;
}

describe('the Grep backend, left to the tool', () => {
  it.skipIf(!rg && !mustHaveTools)('is ripgrep when PATH has it, started once: for the search, not to ask its version', async () => {
    // An rg on PATH that logs its arguments and runs the real one.
    const dir = join(tempDir(), 'bin');
    mkdirSync(dir);
    const log = join(dir, 'calls.log');
    writeFileSync(join(dir, 'rg'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${rg}' "$@"\n`);
    chmodSync(join(dir, 'rg'), 0o755);
    const result = await grepWithPath(`${dir}:/usr/bin:/bin`);
    expect(text(result)).toBe('Found 1 file\na.txt');
    expect(result.metadata?.backend).toBe('ripgrep');
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('--regexp needle');
  });

  it('is the scanner when PATH has no rg', async () => {
    const empty = join(tempDir(), 'empty');
    mkdirSync(empty);
    const result = await grepWithPath(empty);
    expect(text(result)).toBe('Found 1 file\na.txt');
    expect(result.metadata?.backend).toBe('scanner');
  });

  it('falls back to the scanner when the rg on PATH cannot start', async () => {
    const result = await grepWithPath(brokenRipgrep());
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe('Found 1 file\na.txt');
    expect(result.metadata?.backend).toBe('scanner');
  });

  it('reports the failure when the config asks for ripgrep and it cannot start', async () => {
    const root = makeProject();
    writeFileSync(join(root, 'a.txt'), 'needle\n');
    process.env.PATH = brokenRipgrep();
    const { kernel } = await kernelFor(root, [allowAll], { config: { plugins: [['tools-fs', { grepBackend: 'ripgrep' }]] } });
    kernels.push(kernel);
    const result = await runOne(kernel, 'Grep', { pattern: 'needle' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Grep failed');
  });
});
