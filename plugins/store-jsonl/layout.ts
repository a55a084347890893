import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { projectDataDir } from '../../core/index.js';

/** Where the JSONL store keeps things under its data root. */
export interface Layout {
  root: string;
  /** `<root>/projects/<name>-<hash>/sessions` for a project root. */
  sessionsDir(projectRoot: string): string;
  lockFile(sessionId: string): string;
  /** Every project's sessions directory that exists. */
  allSessionDirs(): Promise<string[]>;
}

const SESSION_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/;

/** The layout under `root` (the user's data directory by default). */
export function layout(root: string): Layout {
  return {
    root,
    sessionsDir: (projectRoot) => join(projectDataDir(projectRoot, { ASSISTANT_DATA_DIR: root }), 'sessions'),
    lockFile: (sessionId) => join(root, 'locks', `${sessionId}.lock`),
    async allSessionDirs() {
      const projects = join(root, 'projects');
      const names = await readdir(projects).catch(() => [] as string[]);
      return names.map((n) => join(projects, n, 'sessions'));
    },
  };
}

/** Session ids with an event file in `dir`. */
export async function sessionIdsIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const ids: string[] = [];
  for (const name of names) {
    const m = SESSION_FILE.exec(name);
    if (m) ids.push(m[1]!);
  }
  return ids;
}

/** Files of one session in its directory: events, metadata and side channels. */
export const sessionFiles = {
  events: (dir: string, id: string) => join(dir, `${id}.jsonl`),
  meta: (dir: string, id: string) => join(dir, `${id}.meta.json`),
  channel: (dir: string, id: string, channel: string) => join(dir, `${id}.${channel}.jsonl`),
};

/** Names of every file that belongs to session `id` in `dir`. */
export async function filesOf(dir: string, id: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith(`${id}.`));
}
