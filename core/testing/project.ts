import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A project in a fresh temp directory. */
export interface TempProject {
  /** The project's root (symlinks resolved, so paths compare equal to what tools report). */
  readonly root: string;
  /** Reads a file (path relative to the root). */
  read(path: string): string;
  /** Writes files (path → content), creating folders. */
  write(files: Record<string, string>): void;
  /** Deletes the directory and everything in it. */
  remove(): void;
}

/** Creates a temp directory holding `files` (path → content). */
export function createTempProject(files: Record<string, string> = {}, prefix = 'assistant-plugin-test-'): TempProject {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const project: TempProject = {
    root,
    read: (path) => readFileSync(join(root, path), 'utf8'),
    write(more) {
      for (const [path, content] of Object.entries(more)) {
        const full = join(root, path);
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  project.write(files);
  return project;
}
