// kits/fs findOnPath: where the shell finds a program on PATH (Grep's rg, the permission policy's
// lookup of every command it judges).
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOnPath } from '../../dist/core/kits/fs/index.js';
import { tempDir } from '../support/project.js';

function program(path: string, mode = 0o755): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

describe.skipIf(process.platform === 'win32')('findOnPath', () => {
  const root = tempDir();
  const first = program(join(root, 'a/tool'));
  program(join(root, 'b/tool'));
  program(join(root, 'plain/tool'), 0o644);
  mkdirSync(join(root, 'dir/tool'), { recursive: true });
  const target = program(join(root, 'real/other'));
  mkdirSync(join(root, 'links'));
  symlinkSync(target, join(root, 'links/tool'));
  const path = (...dirs: string[]) => dirs.join(delimiter);

  it('takes the first executable regular file, as bash does', () => {
    expect(findOnPath('tool', { path: path(join(root, 'a'), join(root, 'b')) })).toBe(first);
    // A file entry, a missing folder, a folder named like the program, a file without an execute bit: skipped.
    const skipped = [join(root, 'a/tool'), join(root, 'missing'), join(root, 'dir'), join(root, 'plain')];
    expect(findOnPath('tool', { path: path(...skipped, join(root, 'b')) })).toBe(join(root, 'b/tool'));
    expect(findOnPath('tool', { path: path(...skipped) })).toBeUndefined();
  });

  it('follows links to the real program, and never looks up a path', () => {
    expect(findOnPath('tool', { path: join(root, 'links') })).toBe(target);
    expect(findOnPath('a/tool', { path: root })).toBeUndefined();
  });

  it('resolves relative and empty entries against cwd only when given one', () => {
    expect(findOnPath('tool', { path: path('a', '') })).toBeUndefined();
    expect(findOnPath('tool', { path: path('plain', 'a'), cwd: root })).toBe(first);
    expect(findOnPath('tool', { path: path('', join(root, 'b')), cwd: join(root, 'a') })).toBe(first);
  });
});
