// The prompt history's trim replaces the file through the shared atomic write: a crash while
// trimming leaves the old history or the new one, on disk (fsynced), never a torn file.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PromptHistory } from '../../dist/plugins/ui-terminal/editor/history.js';
import { tempDir } from '../support/project.js';

afterEach(() => vi.restoreAllMocks());

describe('prompt history trim', () => {
  it('writes a new file beside the old one, fsyncs it and its folder, then renames it over', async () => {
    const dir = tempDir();
    const file = join(dir, 'history.jsonl');
    const lines = Array.from({ length: 9 }, (_, i) => JSON.stringify({ project: '/p', time: i, text: `prompt ${i}` }));
    writeFileSync(file, lines.join('\n') + '\n', { mode: 0o600 });
    const before = statSync(file).ino;

    const probe = await open(join(dir, 'probe'), 'w');
    const FileHandle = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    const synced: Array<{ renamed: boolean; file: string }> = [];
    const realSync = FileHandle.sync;
    vi.spyOn(FileHandle, 'sync').mockImplementation(async function (this: unknown) {
      // What is on disk at each fsync: the old history until the rename, the trimmed one after.
      synced.push({ renamed: statSync(file).ino !== before, file: readFileSync(file, 'utf8') });
      return realSync.call(this);
    });

    const history = new PromptHistory(file, '/p', 4);
    await history.load();

    const trimmed = readFileSync(file, 'utf8').trim().split('\n');
    expect(trimmed.map((l) => JSON.parse(l).text)).toEqual(['prompt 5', 'prompt 6', 'prompt 7', 'prompt 8']);
    // The new data was synced while the old file was still in place, and the folder after the rename.
    expect(synced.map((s) => s.renamed)).toEqual([false, true]);
    expect(synced[0]!.file).toBe(lines.join('\n') + '\n');
    expect(statSync(file).ino).not.toBe(before);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
