// The branch in the system prompt is read from .git/HEAD, with no git process: it must say what
// `git rev-parse --abbrev-ref HEAD` says, in worktrees and detached checkouts too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitBranch } from '../../dist/plugins/system-prompt/git-branch.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const gitSays = (cwd: string) => git(cwd, 'rev-parse', '--abbrev-ref', 'HEAD');

function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'git-branch-'));
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'one');
  return dir;
}

describe('the git branch of the system prompt', () => {
  it('names the checked-out branch, slashes included, as git does', () => {
    const dir = repository();
    expect(gitBranch(dir)).toBe('main');
    git(dir, 'checkout', '-q', '-b', 'feature/fast-start');
    expect(gitBranch(dir)).toBe(gitSays(dir));
    expect(gitBranch(dir)).toBe('feature/fast-start');
  });

  it('says HEAD for a detached checkout, as git does', () => {
    const dir = repository();
    git(dir, 'checkout', '-q', '--detach');
    expect(gitSays(dir)).toBe('HEAD');
    expect(gitBranch(dir)).toBe('HEAD');
  });

  it('follows the .git file of a worktree to its own HEAD', () => {
    const dir = repository();
    const worktree = join(mkdtempSync(join(tmpdir(), 'git-branch-wt-')), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', worktree);
    expect(gitBranch(worktree)).toBe(gitSays(worktree));
    expect(gitBranch(worktree)).toBe('side');
    expect(gitBranch(dir)).toBe('main');
  });

  it('says nothing for a folder that is not a repository or a HEAD it does not understand', () => {
    const plain = mkdtempSync(join(tmpdir(), 'git-branch-plain-'));
    expect(gitBranch(plain)).toBeUndefined();
    const odd = repository();
    writeFileSync(join(odd, '.git', 'HEAD'), 'not a head file\n');
    expect(gitBranch(odd)).toBeUndefined();
    // A FIFO named HEAD in a cloned repository must not hang the start (git would time out; we never block).
    const fifo = repository();
    rmSync(join(fifo, '.git', 'HEAD'));
    execFileSync('mkfifo', [join(fifo, '.git', 'HEAD')]);
    expect(gitBranch(fifo)).toBeUndefined();
    const pointer = mkdtempSync(join(tmpdir(), 'git-branch-pointer-'));
    writeFileSync(join(pointer, '.git'), 'something else\n');
    expect(gitBranch(pointer)).toBeUndefined();
  });
});
