import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject, writeFiles } from '../support/project.js';
import { PROBE, allowAll, inline, kernelFor, runOne, text } from './helpers.js';

/** A cached read-only probe over `input.path` and a writing probe, to observe hits and invalidation. */
const probes = inline('test-cache-probes', (kernel) => {
  const base = { inputSchema: { type: 'object' }, module: PROBE, risk: { category: 'read' as const } };
  const path = (i: Record<string, unknown>) => [String(i.path)];
  kernel.tools.register({ ...base, name: 'CachedRead', description: 'cached', access: (i: Record<string, unknown>) => ({ reads: path(i), writes: [] }), cache: { max: 10, ttlMs: 600_000 } });
  kernel.tools.register({ ...base, name: 'ProbeWrite', description: 'writes', access: (i: Record<string, unknown>) => ({ reads: [], writes: path(i) }) });
});

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const startOf = async (k: Kernel, path: string) => (await runOne(k, 'CachedRead', { kind: 'echo', path })).metadata?.start;

describe('result cache', () => {
  it('serves repeated read-only calls from the cache once the watcher is ready, and drops them on our own write', async () => {
    const root = makeProject({ 'src/a.txt': 'a', 'other/b.txt': 'b' });
    ({ kernel } = await kernelFor(root, [allowAll, probes]));
    const k = kernel;
    // A call is watched for from its second time; until that watch is ready nothing is cached.
    await startOf(k, 'src');
    await startOf(k, 'src');
    await until(() => k.files.watching([join(root, 'src')]), 'the watcher');
    const first = await startOf(k, 'src');
    expect(await startOf(k, 'src')).toBe(first);
    // A write elsewhere keeps the entry; a write under `src` drops it at once.
    await runOne(k, 'ProbeWrite', { kind: 'echo', path: 'other/b.txt' });
    const kept = await startOf(k, 'src');
    expect(await startOf(k, 'src')).toBe(kept);
    await runOne(k, 'ProbeWrite', { kind: 'echo', path: 'src/a.txt' });
    expect(await startOf(k, 'src')).not.toBe(kept);
  });

  it("drops entries when someone else's editor changes a file (chokidar)", async () => {
    const root = makeProject({ 'src/a.txt': 'a', '.gitignore': 'tmp/\n' });
    ({ kernel } = await kernelFor(root, [allowAll, probes]));
    const k = kernel;
    await startOf(k, 'src');
    await startOf(k, 'src');
    await until(() => k.files.watching([join(root, 'src')]), 'the watcher');
    const cached = await startOf(k, 'src');
    expect(await startOf(k, 'src')).toBe(cached);
    writeFileSync(join(root, 'src', 'a.txt'), 'changed outside');
    await until(async () => (await startOf(k, 'src')) !== cached, 'the external change to invalidate the entry');
  });

  it('does not serve a stale Grep after an external change', async () => {
    const root = makeProject({ 'notes.md': 'nothing here\n' });
    ({ kernel } = await kernelFor(root));
    const k = kernel;
    expect(text(await runOne(k, 'Grep', { pattern: 'needle' }))).toContain('No matches');
    expect(text(await runOne(k, 'Grep', { pattern: 'needle' }))).toContain('No matches');
    await until(() => k.files.watching([root]), 'the watcher');
    expect(text(await runOne(k, 'Grep', { pattern: 'needle' }))).toContain('No matches');
    writeFiles(root, { 'found.md': 'a needle\n' });
    await until(async () => text(await runOne(k, 'Grep', { pattern: 'needle' })) === 'Found 1 file\nfound.md', 'Grep to see the new file');
  });

  it('ignores changes under .git, node_modules and .gitignored folders', async () => {
    const root = makeProject({ 'src/a.txt': 'a', '.gitignore': 'tmp/\n', 'tmp/x': '', 'node_modules/x': '', '.git/x': '' });
    ({ kernel } = await kernelFor(root, [allowAll, probes]));
    const k = kernel;
    expect(k.files.watches(join(root, 'src', 'a.txt'))).toBe(true);
    for (const ignored of ['tmp/x', 'node_modules/x', '.git/x']) expect(k.files.watches(join(root, ignored))).toBe(false);
  });
});
