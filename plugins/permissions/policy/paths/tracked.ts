import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const cache = new Map<string, { at: number; found: string | undefined }>();
const TTL_MS = 2000;

/**
 * The first file git tracks in the repository around `dir` that is a secret, so a command that
 * prints the repository's content by commit or object id (`git grep`, `git show <id>`) can be
 * judged. git is run with its file-system monitor off: a repository's own configuration must not
 * start a program from inside the permission check. Not a repository: nothing.
 */
export function trackedSecret(dir: string, isSecret: (path: string) => string | undefined): string | undefined {
  const cached = cache.get(dir);
  if (cached && Date.now() - cached.at < TTL_MS) return cached.found;
  let found: string | undefined;
  try {
    const top = execFileSync('git', ['-c', 'core.fsmonitor=false', '-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    const files = execFileSync('git', ['-c', 'core.fsmonitor=false', '-C', top, 'ls-files', '-z', '--cached'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000, maxBuffer: 256 * 1024 * 1024 });
    for (const file of files.split('\0')) {
      if (file && isSecret(join(top, file))) {
        found = file;
        break;
      }
    }
  } catch {
    // Not a repository (the command fails the same way), or git is missing.
  }
  cache.set(dir, { at: Date.now(), found });
  return found;
}
