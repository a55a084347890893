import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

const created: string[] = [];
afterAll(async () => {
  for (const dir of created) await removeTree(dir);
});

/**
 * Removes a folder, walking it again while something still writes into it: a CLI a test just
 * stopped may be writing its exit-time files (its code cache, under the home folder). rmSync's own
 * retries do not walk again, so a file created after its walk fails it with ENOTEMPTY.
 */
async function removeTree(dir: string): Promise<void> {
  for (let attempt = 1; ; attempt++)
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      if (!['ENOTEMPTY', 'EBUSY'].includes((error as NodeJS.ErrnoException).code ?? '') || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
}

/** A fresh temp directory (symlinks resolved, so paths compare equal), removed after the file's tests. */
export function tempDir(prefix = 'assistant-test-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes `files` (path → content) under a fresh temp directory and returns it. */
export function makeProject(files: Record<string, string> = {}): string {
  const dir = tempDir();
  writeFiles(dir, files);
  return dir;
}

/** Writes `files` (path → content) under `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** An environment isolated from the developer's own config and data directories. */
export function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = tempDir('assistant-home-');
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ASSISTANT_LOG_LEVEL', 'ASSISTANT_LOG_FILE'])
    delete env[key];
  return { ...env, ...userDirsUnder(home), NO_COLOR: '1', ...extra };
}

/** The variables that place the user's home, config, data and cache directories under `home`. */
export function userDirsUnder(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ASSISTANT_CONFIG_DIR: join(home, '.config', 'assistant'),
    ASSISTANT_DATA_DIR: join(home, '.local', 'share', 'assistant'),
  };
}
