import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { link, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SessionError, type SessionOwner } from '../../core/index.js';
import { describeHolder, ownerAlive, processStartTicks, writeFileAtomic, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../core/kits/store/index.js';
import { secureRandomUUID } from '../../core/kits/fs/index.js';

/** What a lock file holds: who writes the session, and a token only that writer knows. */
export interface LockRecord extends SessionOwner {
  token: string;
  /** Kernel start time of the process (Linux), so a reused pid is not mistaken for the holder. */
  startTicks?: string;
}

/** True while the lock's process may still be writing: always for another host (we cannot see it). */
export const holderAlive = (lock: LockRecord): boolean => ownerAlive(lock);

// The lock is read before every checkpoint and written at every start: a few hundred bytes, read and
// written with synchronous calls (a thread-pool round trip cost more than the call).

/** The lock file's record, or undefined when there is none (or it is unreadable, i.e. half-written by a crash). */
export async function readLock(path: string): Promise<LockRecord | undefined> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockRecord;
  } catch {
    return undefined;
  }
}

function inUse(sessionId: string, holder: LockRecord): SessionError {
  return new SessionError(
    'ASSISTANT_SESSION_IN_USE',
    `session ${sessionId.slice(0, 8)} is in use on ${describeHolder(holder)}; close it there, or pass --take-over to take it over`,
    { plugin: 'store-jsonl' },
  );
}

/**
 * Takes the session's lock file (O_EXCL create). A lock left by a dead process on this host is
 * moved aside and retaken; a live holder is refused unless `takeOver`, which replaces the lock
 * atomically (the old holder notices at its next checkpoint).
 * The new lock is not flushed to the disk: what it says matters only while its process lives, and
 * a crash of the machine leaves no process alive (a lock left empty reads as no holder: stale).
 */
export async function acquireLock(path: string, sessionId: string, owner: SessionOwner, takeOver = false): Promise<LockRecord> {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const mine: LockRecord = { ...owner, since: Date.now(), token: secureRandomUUID(), startTicks: processStartTicks(owner.pid) };
  if (takeOver) {
    await writeFileAtomic(path, JSON.stringify(mine));
    return mine;
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      return mine;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLock(path);
    if (!holder && attempt === 0) {
      // Unreadable: maybe being written this instant. Look again before calling it stale.
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    if (holder && holderAlive(holder)) throw inUse(sessionId, holder);
    await breakStaleLock(path, holder);
  }
  throw new SessionError('ASSISTANT_SESSION_IN_USE', `session ${sessionId.slice(0, 8)}: could not take its lock ${path} (other processes keep racing for it)`, {
    plugin: 'store-jsonl',
  });
}

/** Moves a dead holder's lock aside; if a live lock was moved by mistake (a race), puts it back. */
async function breakStaleLock(path: string, judged: LockRecord | undefined): Promise<void> {
  const aside = `${path}.stale-${secureRandomUUID()}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readLock(aside);
  if (judged && moved && moved.token !== judged.token) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/** The current holder when it is not `token` (taken over or removed), else undefined. */
export async function lostLock(path: string, token: string): Promise<LockRecord | { surface: string; pid: number } | undefined> {
  const holder = await readLock(path);
  if (!holder) return { surface: 'another surface (which has since released it)', pid: 0 };
  return holder.token === token ? undefined : holder;
}

/** Removes the lock if it is still ours. */
export async function releaseLock(path: string, token: string): Promise<void> {
  const holder = await readLock(path);
  if (holder?.token !== token) return;
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
