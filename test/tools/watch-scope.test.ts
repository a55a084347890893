// The watcher watches only what the caches hold: nothing before a cache asks, a searched folder's
// tree for a repeated search; a Read starts no watch; and a cache trusts a watch only once it is ready.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { ReadState } from '../../dist/plugins/tools-fs/read-state.js';
import { makeProject } from '../support/project.js';
import { pollUntil } from '../support/wait.js';
import { kernelFor, runOne, text } from './helpers.js';

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

/** Polls until `check` holds (test/support/wait.ts), failing with what was awaited. */
async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  expect(await pollUntil(check), `waiting for ${what}`).toBe(true);
}

const context = { sessionId: 's', agentId: 'a' } as never;

describe('what the file watcher watches', () => {
  it('watches nothing before anything is cached: one-off searches start no watch', async () => {
    const root = makeProject({ 'src/a.txt': 'alpha\n', 'lib/b.txt': 'beta\n' });
    ({ kernel } = await kernelFor(root));
    const k = kernel;
    expect(text(await runOne(k, 'Grep', { pattern: 'alpha' }))).toContain('src/a.txt');
    expect(text(await runOne(k, 'Glob', { pattern: '**/*.txt' }))).toContain('lib/b.txt');
    expect(k.files.watched()).toEqual([]);
    // The same search a second time is worth watching: the tree it read, once.
    await runOne(k, 'Grep', { pattern: 'alpha' });
    expect(k.files.watched()).toEqual([{ folder: root, deep: true, ready: expect.any(Boolean) }]);
  });

  it('a Read or an Edit starts no watch, and a read checksum is not trusted without one', async () => {
    const root = makeProject({ 'src/a.txt': 'alpha\n' });
    ({ kernel } = await kernelFor(root));
    const k = kernel;
    expect(text(await runOne(k, 'Read', { file_path: 'src/a.txt' }))).toContain('alpha');
    expect(text(await runOne(k, 'Edit', { file_path: 'src/a.txt', old_string: 'alpha', new_string: 'gamma' }))).not.toMatch(/error/i);
    expect(k.files.watched()).toEqual([]);
    const state = new ReadState(k.files);
    state.record(context, join(root, 'src', 'a.txt'), 'sum-1');
    expect(state.knownOnDisk(join(root, 'src', 'a.txt'))).toBeUndefined();
    expect(k.files.watched()).toEqual([]);
  });

  it("a file's watch does not cover a search of its folder or another folder", async () => {
    const root = makeProject({ 'src/a.txt': 'alpha\n', 'src/deep/b.txt': 'beta\n', 'other/c.txt': 'c\n' });
    ({ kernel } = await kernelFor(root));
    const k = kernel;
    expect(k.files.watch([join(root, 'src', 'a.txt')])).toBe(false); // not ready yet
    expect(k.files.watched().map(({ folder, deep }) => ({ folder, deep }))).toEqual([{ folder: join(root, 'src'), deep: false }]);
    await until(() => k.files.watching([join(root, 'src', 'a.txt')]), 'the watch of src/');
    expect(k.files.watching([join(root, 'src')])).toBe(false);
    expect(k.files.watching([join(root, 'src', 'deep', 'b.txt')])).toBe(false);
    expect(k.files.watching([join(root, 'other', 'c.txt')])).toBe(false);
  });

  /** A project with one file whose checksum a ReadState holds, trusted (a ready watch covers it). */
  async function recorded(): Promise<{ root: string; file: string; state: ReadState }> {
    const root = makeProject({ 'src/a.txt': 'one\n' });
    ({ kernel } = await kernelFor(root));
    const k = kernel;
    const file = join(root, 'src', 'a.txt');
    const state = new ReadState(k.files);
    // A repeated search starts the watch of the tree it read; a record is trusted only under a ready watch.
    await runOne(k, 'Grep', { pattern: 'one' });
    await runOne(k, 'Grep', { pattern: 'one' });
    state.record(context, file, 'sum-1');
    await until(() => k.files.watching([file]), 'the watch of the project');
    expect(state.knownOnDisk(file)).toBeUndefined();
    state.record(context, file, 'sum-1');
    expect(state.knownOnDisk(file)).toBe('sum-1');
    return { root, file, state };
  }

  it('drops a recorded checksum when another program writes that file', async () => {
    const { file, state } = await recorded();
    writeFileSync(file, 'two\n');
    await until(() => state.knownOnDisk(file) === undefined, 'the outside write to drop the checksum');
  });

  it('drops a recorded checksum when an editor replaces the file by renaming onto it', async () => {
    const { root, file, state } = await recorded();
    writeFileSync(join(root, 'src', '.a.txt.tmp'), 'three\n');
    renameSync(join(root, 'src', '.a.txt.tmp'), file);
    await until(() => state.knownOnDisk(file) === undefined, 'the rename onto the file to drop the checksum');
  });

  it('never watches or trusts paths outside the project, ignored folders or missing files', async () => {
    const root = makeProject({ 'src/a.txt': 'a\n', 'node_modules/m/x.js': '', '.gitignore': 'tmp/\n', 'tmp/t.txt': '' });
    const outside = makeProject({ 'o.txt': 'o\n' });
    ({ kernel } = await kernelFor(root));
    const k = kernel;
    for (const path of [join(outside, 'o.txt'), join(root, 'node_modules', 'm', 'x.js'), join(root, 'tmp', 't.txt'), join(root, 'missing.txt'), join(root, '.git')])
      expect(k.files.watch([path])).toBe(false);
    expect(k.files.watched()).toEqual([]);
  });
});
