import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The checked-out branch of the repository at `root`, read from `.git/HEAD` (or the folder a `.git`
 * file names, as worktrees and submodules have): no `git` process at start-up. `HEAD` when detached,
 * as `git rev-parse --abbrev-ref HEAD` says; undefined when `root` is not a repository.
 */
export function gitBranch(root: string): string | undefined {
  const dotGit = join(root, '.git');
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir: (.+)$/m.exec(readHead(dotGit) ?? '')?.[1]?.trim();
      if (!pointer) return undefined;
      gitDir = isAbsolute(pointer) ? pointer : resolve(root, pointer);
    }
  } catch {
    return undefined;
  }
  const head = readHead(join(gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  const branch = /^ref: refs\/heads\/(\S+)\s*$/.exec(head)?.[1];
  if (branch) return branch;
  // A detached HEAD holds a commit id; anything else is not a HEAD file we understand.
  return /^[0-9a-f]{40,64}\s*$/.test(head) ? 'HEAD' : undefined;
}

/**
 * The start of a small regular file (HEAD and `.git` pointer files are one line), or undefined. A
 * cloned repository is untrusted: a FIFO or device named HEAD must not block the start, so the file
 * is opened non-blocking and read only when it is a regular file.
 */
function readHead(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(1024);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
