// A command the engine knows (`ls`, `cat`, `git`) is not that command when PATH finds a program of
// that name inside the project first (an activated .venv/bin, direnv's `PATH_add bin`): a file the
// agent may have written. Such a command is not proven safe; a test run keeps its verdict under
// trustTestCommands, since it runs project code anyway. Judged by the built CLI, with PATH as given.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bash, checkBatch, policyFixture, type PolicyFixture } from './support.js';

const posix = process.platform !== 'win32';
let fixture: PolicyFixture;

/** An executable script at `path` inside the project. */
function program(path: string, executable = true): void {
  mkdirSync(join(fixture.root, path, '..'), { recursive: true });
  writeFileSync(join(fixture.root, path), '#!/bin/sh\necho planted\n');
  chmodSync(join(fixture.root, path), executable ? 0o755 : 0o644);
}

/** The fixture's environment with `dirs` in front of PATH. */
const withPath = (...dirs: string[]) => ({ ...fixture, env: { ...fixture.env, PATH: [...dirs, fixture.env.PATH ?? process.env.PATH].join(delimiter) } });

beforeAll(() => {
  fixture = policyFixture();
  program('.venv/bin/ls');
  program('.venv/bin/pytest');
  program('.venv/bin/cp');
  program('wrappers/bin/timeout');
  program('bin/cat', false);
  // A folder outside the project whose `git` is a link to a program inside it.
  program('tools/git');
  mkdirSync(join(fixture.outside, 'bin'));
  symlinkSync(join(fixture.root, 'tools/git'), join(fixture.outside, 'bin/git'));
});

describe.skipIf(!posix)('a command name PATH finds inside the project', () => {
  it('is not proven safe, in default and acceptEdits mode; the reason names the program', async () => {
    const shadowed = withPath(join(fixture.root, '.venv/bin'), join(fixture.root, 'bin'));
    const [ls, lsEdits, copy, nested, cat, head] = await checkBatch(shadowed, [
      ...bash(['ls src']),
      ...bash(['ls src', 'cp names.txt copy.txt'], 'acceptEdits'),
      ...bash(["sh -c 'ls src'"]),
      // Not executable: bash looks further and runs the system's.
      ...bash(['cat names.txt', 'head -1 names.txt']),
    ]);
    expect(ls).toMatchObject({ behavior: 'ask' });
    expect(ls!.reason).toContain('.venv/bin/ls');
    expect(lsEdits!.behavior).not.toBe('allow');
    // A write inside the project, which acceptEdits allows from the system's cp.
    expect(copy!.behavior).not.toBe('allow');
    expect(nested!.behavior).not.toBe('allow');
    expect(cat).toMatchObject({ behavior: 'allow' });
    expect(head).toMatchObject({ behavior: 'allow' });
  });

  it('looks up the wrappers in front of the command too', async () => {
    const [plain, wrapped, chained] = await checkBatch(withPath(join(fixture.root, 'wrappers/bin')), bash(['ls src', 'timeout 5 ls src', 'nice timeout 5 ls src']));
    expect(plain).toMatchObject({ behavior: 'allow' });
    expect(wrapped!.behavior).toBe('ask');
    expect(wrapped!.reason).toContain('wrappers/bin/timeout');
    expect(chained!.behavior).toBe('ask');
  });

  it('follows a link from a folder outside the project to a program inside it', async () => {
    const [git] = await checkBatch(withPath(join(fixture.outside, 'bin')), bash(['git status']));
    expect(git!.behavior).toBe('ask');
    expect(git!.reason).toContain('tools/git');
  });

  it('leaves a test run to trustTestCommands, and changes nothing when PATH has no such folder', async () => {
    const [pytest] = await checkBatch(withPath(join(fixture.root, '.venv/bin')), bash(['pytest']));
    const [ls, git, copy] = await checkBatch(fixture, [...bash(['ls src', 'git status']), ...bash(['cp names.txt copy.txt'], 'acceptEdits')]);
    expect(pytest).toMatchObject({ behavior: 'allow' });
    expect(copy).toMatchObject({ behavior: 'allow' });
    expect(ls).toMatchObject({ behavior: 'allow' });
    expect(git).toMatchObject({ behavior: 'allow' });
  });
});
