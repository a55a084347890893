// The one atomic write (kits/fs) that stores, the file tools, the trust store and the prompt
// history share: its contract, for both flavours.
import fs, { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { processAlive, writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from '@assistant-cli/assistant/kits/fs';
import { tempDir } from '../support/project.js';

type Write = (path: string, data: string | Uint8Array, options?: AtomicWriteOptions) => Promise<boolean>;
const flavours: Array<[string, Write]> = [
  ['writeFileAtomic', writeFileAtomic],
  ['writeFileAtomicSync', async (path, data, options) => writeFileAtomicSync(path, data, options)],
];
const temps = (dir: string) => readdirSync(dir).filter((name) => name.includes('.assistant-') && name.endsWith('.tmp'));
const modeOf = (path: string) => statSync(path).mode & 0o7777;

afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

describe.each(flavours)('%s', (_name, write) => {
  it('replaces the file through a hidden temp file in the same directory, readers seeing the old file until the rename', async () => {
    const dir = tempDir();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'old\n');
    const inode = statSync(file).ino;
    let during: { content: string; temps: string[] } | undefined;
    expect(await write(file, 'new\n', { beforeRename: () => ((during = { content: readFileSync(file, 'utf8'), temps: temps(dir) }), true) })).toBe(true);
    expect(during?.content).toBe('old\n');
    expect(during?.temps).toEqual([expect.stringMatching(new RegExp(`^\\.notes\\.txt\\.assistant-${process.pid}-[0-9a-f]+\\.tmp$`))]);
    expect(readFileSync(file, 'utf8')).toBe('new\n');
    expect(statSync(file).ino).not.toBe(inode);
    expect(temps(dir)).toEqual([]);
  });

  it('keeps the mode of the file it replaces exactly (the umask does not narrow it), and creates new files private', async () => {
    const dir = tempDir();
    const shared = join(dir, 'shared.sh');
    writeFileSync(shared, 'x');
    fs.chmodSync(shared, 0o775);
    const umask = process.umask(0o077);
    try {
      await write(shared, 'y');
      await write(join(dir, 'fresh.json'), '{}');
      await write(join(dir, 'exact'), 'z', { mode: 0o640 });
      await write(join(dir, 'project-file'), 'w', { newFileMode: 0o666 });
    } finally {
      process.umask(umask);
    }
    expect(modeOf(shared)).toBe(0o775);
    expect(modeOf(join(dir, 'fresh.json'))).toBe(0o600);
    expect(modeOf(join(dir, 'exact'))).toBe(0o640);
    // A new file without a mode gets newFileMode minus the umask, as open() would.
    expect(modeOf(join(dir, 'project-file'))).toBe(0o600);
  });

  it('leaves the file untouched and no temp file when the rename fails or the last check says no', async () => {
    const dir = tempDir();
    const file = join(dir, 'kept.txt');
    writeFileSync(file, 'kept\n');
    expect(await write(file, 'lost\n', { beforeRename: () => false })).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
    // A directory (not empty) in the file's place: the rename fails.
    mkdirSync(join(dir, 'busy', 'inside'), { recursive: true });
    await expect(write(join(dir, 'busy'), 'data')).rejects.toThrow();
    expect(temps(dir)).toEqual([]);
    expect(existsSync(join(dir, 'busy', 'inside'))).toBe(true);
  });

  it('removes temp files of dead writers when asked, and keeps those of live ones', async () => {
    const dir = tempDir();
    const file = join(dir, 'a.txt');
    const dead = `.a.txt.assistant-999999999-0a0b.tmp`;
    const live = `.a.txt.assistant-${process.ppid}-0c0d.tmp`;
    const other = `.b.txt.assistant-999999999-0e0f.tmp`;
    for (const name of [dead, live, other]) writeFileSync(join(dir, name), 'half');
    await write(file, 'whole');
    expect(temps(dir).sort()).toEqual([dead, live, other].sort());
    await write(file, 'whole', { sweepStaleTemps: true });
    expect(temps(dir).sort()).toEqual([live, other].sort());
  });
});

describe('durability', () => {
  it('writeFileAtomic fsyncs the file before the rename and the directory after it', async () => {
    const dir = tempDir();
    const probe = await open(join(dir, 'probe'), 'w');
    const FileHandle = Object.getPrototypeOf(probe) as { sync(): Promise<void> };
    await probe.close();
    const order: string[] = [];
    vi.spyOn(FileHandle, 'sync').mockImplementation(async function () {
      order.push(`sync:${existsSync(join(dir, 'f')) ? 'after-rename' : 'before-rename'}`);
    });
    await writeFileAtomic(join(dir, 'f'), 'data', { beforeRename: () => (order.push('rename'), true) });
    expect(order).toEqual(['sync:before-rename', 'rename', 'sync:after-rename']);
  });

  it('writeFileAtomicSync fsyncs the file before the rename and the directory after it', () => {
    const dir = tempDir();
    const order: string[] = [];
    const real = fs.fsyncSync;
    vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      order.push(`sync:${existsSync(join(dir, 'f')) ? 'after-rename' : 'before-rename'}`);
      real(fd);
    });
    syncBuiltinESMExports();
    writeFileAtomicSync(join(dir, 'f'), 'data', { beforeRename: () => (order.push('rename'), true) });
    expect(order).toEqual(['sync:before-rename', 'rename', 'sync:after-rename']);
  });
});

describe('processAlive', () => {
  it('tells a running process from a gone one', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(process.ppid)).toBe(true);
    expect(processAlive(999_999_999)).toBe(false);
    expect(processAlive(0)).toBe(false);
    expect(processAlive(Number.NaN)).toBe(false);
  });
});
