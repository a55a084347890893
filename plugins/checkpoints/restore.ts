import { lstat, mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AssistantError } from '../../core/index.js';
import { writeFileAtomic } from '../../core/kits/fs/index.js';
import { assemble, type BlobRef } from './blobs.js';
import { currentHash } from './capture.js';
import { CHECKPOINT_ERRORS } from './errors.js';
import { inside, realTarget, restoreTarget } from './paths.js';
import type { Timeline } from './records.js';

/** One file a code rewind puts back. */
export interface FileRestore {
  /** Project-relative path. */
  key: string;
  /** Where it is written. */
  path: string;
  /** What it held before the rewound prompts (`null`: it did not exist, so it is deleted). */
  before: BlobRef | null;
  mode?: number;
  /** Changed after the agent last wrote it (by the user, a command): overwritten only when confirmed. */
  changedSince: boolean;
}

/**
 * The files a rewind to before prompt `seq` restores: each file any later prompt saved (in the
 * conversation or already rewound), to its content before the earliest of them. Files already as
 * they were are left out. Refuses (nothing done) when a path would lead outside the project.
 */
export async function planCodeRestore(timeline: Timeline, seq: number, root: string): Promise<FileRestore[]> {
  const earliest = new Map<string, { before: BlobRef | null; mode?: number }>();
  for (const prompt of timeline.prompts) if (prompt.seq >= seq) for (const [key, saved] of prompt.files) if (!earliest.has(key)) earliest.set(key, saved);
  const plan: FileRestore[] = [];
  const refused: string[] = [];
  for (const [key, saved] of earliest) {
    const target = restoreTarget(root, key);
    if ('refused' in target) {
      refused.push(target.refused);
      continue;
    }
    const now = await currentHash(target.path);
    const wanted = saved.before ? saved.before.hash : null;
    if (now === wanted) continue;
    const expected = timeline.expected.get(key);
    plan.push({ key, path: target.path, before: saved.before, ...(saved.mode !== undefined ? { mode: saved.mode } : {}), changedSince: expected === undefined || expected !== now });
  }
  if (refused.length)
    throw new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_REWIND_UNSAFE, `the rewind would write outside the project, so nothing was restored: ${refused.join('; ')}`, { plugin: 'checkpoints' });
  return plan.sort((a, b) => a.key.localeCompare(b.key));
}

/** Checks every saved content first (hashes), then writes them through the atomic write; a deleted file's folder stays. */
export async function applyCodeRestore(plan: FileRestore[], chunks: Map<string, string>, root: string): Promise<Array<{ path: string; hash: string | null }>> {
  const contents = plan.map((file) => (file.before ? assemble(file.before, chunks, file.key) : null));
  const done: Array<{ path: string; hash: string | null }> = [];
  for (const [i, file] of plan.entries()) {
    const data = contents[i]!;
    // Checked again at the last moment: a folder swapped for a link since the plan must not lead the write out.
    const stillInside = () => {
      const parent = realTarget(dirname(file.path));
      return parent !== undefined && inside(root, parent);
    };
    if (!stillInside()) throw unsafe(file.key);
    if (data === null) {
      const stat = await lstat(file.path).catch(() => undefined);
      if (stat?.isFile()) await unlink(file.path);
      done.push({ path: file.key, hash: null });
      continue;
    }
    await mkdir(dirname(file.path), { recursive: true });
    const current = await lstat(file.path).catch(() => undefined);
    if (current?.isSymbolicLink()) throw unsafe(file.key);
    const written = await writeFileAtomic(file.path, data, { ...(current ? {} : { mode: file.mode ?? 0o644 }), beforeRename: stillInside });
    if (!written) throw unsafe(file.key);
    done.push({ path: file.key, hash: file.before!.hash });
  }
  return done;
}

function unsafe(key: string): AssistantError {
  return new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_REWIND_UNSAFE, `${key}: its folder now leads outside the project; it was not restored`, { plugin: 'checkpoints' });
}
