// The run-time list of added folders (`/add-dir`) in the fs kit: the checks of --add-dir, symlinks
// resolved once, folders already covered add nothing, each kernel has its own list, listeners hear
// of each new folder, and the configured folders come first.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDirectoryWhileRunning, addedDirectoriesOf, directoriesAddedWhileRunning, onDirectoryAdded } from '@assistant-cli/assistant/kits/fs';
import { tempDir } from '../support/project.js';

const kernelAt = (root: string, added: string[] = []) => ({ projectRoot: root, cwd: root, config: { permissions: { additionalDirectories: added } } });

describe('folders added while running', () => {
  it('adds the real folder once, tells listeners, and keeps each kernel to itself', () => {
    const base = tempDir('assistant-kit-added-');
    const root = join(base, 'project');
    const shared = join(base, 'shared');
    mkdirSync(join(root, 'src'), { recursive: true });
    mkdirSync(join(shared, 'deep'), { recursive: true });
    symlinkSync(shared, join(base, 'link'));
    const kernel = kernelAt(root);
    const heard: string[] = [];
    onDirectoryAdded(kernel, (dir) => heard.push(dir));

    expect(addDirectoryWhileRunning(kernel, '../link', root)).toEqual({ added: shared });
    expect(addDirectoryWhileRunning(kernel, join(shared, 'deep'), root)).toEqual({ covered: shared });
    expect(addDirectoryWhileRunning(kernel, 'src', root)).toEqual({ covered: root });
    expect(heard).toEqual([shared]);
    expect(directoriesAddedWhileRunning(kernel)).toEqual([shared]);
    expect(addedDirectoriesOf(kernel, root)).toEqual([shared]);
    expect(directoriesAddedWhileRunning(kernelAt(root))).toEqual([]);
  });

  it('refuses what --add-dir refuses, with a coded error, and adds nothing', () => {
    const root = tempDir('assistant-kit-added-root-');
    const kernel = kernelAt(root);
    for (const [dir, words] of [
      ['/', 'the file system root'],
      ['/etc', 'can never be added'],
      ['/proc/self', 'can never be added'],
      [process.env.HOME ?? '/root', 'home folder'],
      ['no-such-folder', 'does not exist'],
    ] as const) {
      let error: unknown;
      try {
        addDirectoryWhileRunning(kernel, dir, root);
      } catch (caught) {
        error = caught;
      }
      expect(error, dir).toMatchObject({ code: 'ASSISTANT_CONFIG_INVALID' });
      expect(String((error as Error).message)).toContain(words);
    }
    expect(directoriesAddedWhileRunning(kernel)).toEqual([]);
  });

  it('lists the configured folders with those added while running', () => {
    const base = tempDir('assistant-kit-added-both-');
    for (const d of ['project', 'one', 'two']) mkdirSync(join(base, d));
    const root = join(base, 'project');
    const kernel = kernelAt(root, [join(base, 'one')]);
    expect(addDirectoryWhileRunning(kernel, join(base, 'one'), root)).toEqual({ covered: join(base, 'one') });
    addDirectoryWhileRunning(kernel, join(base, 'two'), root);
    expect(addedDirectoriesOf(kernel, root)).toEqual([join(base, 'one'), join(base, 'two')]);
  });
});
