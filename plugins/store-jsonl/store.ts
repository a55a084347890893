import { statSync } from 'node:fs';
import { readdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  SessionError,
  currentOwner,
  type Json,
  type Logger,
  type SessionEvent,
  type SessionInfo,
  type SessionLease,
  type SessionListQuery,
  type SessionOwner,
  type SessionSnapshot,
  type SessionStore,
  type SessionSummary,
} from '../../core/index.js';
import {
  keyedQueue,
  pruneSessions,
  sessionSummary,
  ensurePrivateDir,
  openJsonlAppender,
  readJsonl,
  writeFileAtomicSync,
  type JsonlAppender,
} from '../../core/kits/store/index.js';
import { layout, sessionFiles, sessionIdsIn, filesOf } from './layout.js';
import { readMeta, readSession } from './read.js';
import { acquireLock, holderAlive, lostLock, readLock, releaseLock, type LockRecord } from './lock.js';

/** One line of a session file: the event and when it was written. */
interface Line {
  t: number;
  e: SessionEvent;
}

/** A session this process is writing. */
interface Writer {
  id: string;
  dir: string;
  events: JsonlAppender;
  info: SessionInfo;
  messageCount: number;
  lost?: string;
  /** When the metadata file was last rewritten, and whether it is behind. */
  metaWrittenAt: number;
  metaStale: boolean;
}

/** Rewrite a session's metadata at most this often while it is written (always on start, title, resume and close). */
const META_INTERVAL_MS = 1000;

const CHANNEL = /^[a-z][a-z0-9-]{0,31}$/;
const PREFIX = /^[0-9a-f-]{1,36}$/;
/** A full session id: ids name files, so anything else (a path, a prefix) is never looked up. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PLUGIN = 'store-jsonl';

const unavailable = (what: string, error: unknown) =>
  new SessionError('ASSISTANT_STORE_UNAVAILABLE', `${what}: ${(error as Error)?.message ?? error}`, { plugin: PLUGIN, cause: error });


async function mapInBatches<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}


/** A lock's holder without the secrets that fence writes. */
const ownerOf = ({ token: _token, startTicks: _ticks, ...owner }: LockRecord): SessionOwner => owner;

const invalidId = (id: string) =>
  new SessionError('ASSISTANT_SESSION_NOT_FOUND', `"${id.slice(0, 60)}" is not a session id (a lowercase UUID)`, { plugin: PLUGIN });

/**
 * The embedded store: one append-only JSONL file per session under the user's data directory,
 * grouped by project; a metadata file per session rewritten atomically; side channels beside it;
 * a lock file per session so only one process writes it. `owner` is who the locks name as holder
 * (this process as it is when it takes each lock, unless a test plays several processes).
 */
export function createJsonlStore(root: string, logger: Logger, owner?: SessionOwner): SessionStore {
  const paths = layout(root);
  const serial = keyedQueue();
  const located = new Map<string, { dir: string; messageCount: number }>();
  const writers = new Map<string, Writer>();
  const held = new Map<string, LockRecord>();
  /** Inode and change time of each lock we hold: a take-over replaces the file, so one stat per write notices it. */
  const lockStamps = new Map<string, string>();
  // The inode alone is not enough: a lock file removed and created again may get the same inode number.
  const stampOf = (s: { ino: number; ctimeMs: number } | undefined) => (s ? `${s.ino}:${s.ctimeMs}` : undefined);
  const channels = new Map<string, JsonlAppender>();

  async function exists(path: string): Promise<boolean> {
    return stat(path).then(
      () => true,
      () => false,
    );
  }

  /** The directory holding session `id`: where it was last seen, this project's, or any project's. */
  async function findDir(id: string, projectRoot?: string): Promise<string | undefined> {
    if (!SESSION_ID.test(id)) return undefined;
    const known = located.get(id)?.dir ?? writers.get(id)?.dir;
    if (known) return known;
    if (projectRoot) {
      const dir = paths.sessionsDir(projectRoot);
      if (await exists(sessionFiles.events(dir, id))) return dir;
    }
    for (const dir of await paths.allSessionDirs()) if (await exists(sessionFiles.events(dir, id))) return dir;
    return undefined;
  }

  // The summary is rebuilt from the event file when it is missing or behind (listing also trusts the
  // event file's mtime): replaced atomically, not flushed, a few hundred bytes written in place.
  const writeMeta = async (w: Writer) => {
    w.metaWrittenAt = Date.now();
    w.metaStale = false;
    writeFileAtomicSync(sessionFiles.meta(w.dir, w.id), JSON.stringify(sessionSummary(w.info, w.messageCount)), { flush: false });
  };
  /** The lock file's inode and change time, or undefined when it is gone: one stat (synchronous: cheaper than a round trip) per write notices a take-over. */
  const lockStampNow = (id: string) => {
    try {
      return stampOf(statSync(paths.lockFile(id)));
    } catch {
      return undefined;
    }
  };

  async function lock(id: string, takeOver = false): Promise<LockRecord> {
    const mine = held.get(id);
    if (mine && !takeOver && !(await lostLock(paths.lockFile(id), mine.token))) return mine;
    const record = await acquireLock(paths.lockFile(id), id, owner ?? currentOwner(), takeOver);
    held.set(id, record);
    lockStamps.set(id, lockStampNow(id)!);
    const writer = writers.get(id);
    if (writer) writer.lost = undefined;
    return record;
  }

  async function openWriter(event: SessionEvent, info: SessionInfo): Promise<Writer> {
    const existing = writers.get(info.id);
    if (existing) return existing;
    const dir = event.type === 'session_start' ? paths.sessionsDir(info.projectRoot) : ((await findDir(info.id, info.projectRoot)) ?? paths.sessionsDir(info.projectRoot));
    await lock(info.id);
    const events = await openJsonlAppender(sessionFiles.events(dir, info.id));
    if (events.repairedBytes) logger.warn(`${events.path}: removed a torn last record (${events.repairedBytes} bytes) left by a crash`);
    // A session starting now has no summary to take the count from.
    const messageCount = located.get(info.id)?.messageCount ?? (event.type === 'session_start' ? undefined : (await readMeta(dir, info.id))?.messageCount) ?? 0;
    const writer: Writer = { id: info.id, dir, events, info, messageCount, metaWrittenAt: 0, metaStale: true };
    writers.set(info.id, writer);
    return writer;
  }

  /** Moves a resumed session's files into the project it was reopened in. */
  async function relocate(w: Writer, projectRoot: string): Promise<void> {
    const target = paths.sessionsDir(projectRoot);
    if (target === w.dir) return;
    await w.events.close();
    await closeChannels(w.id);
    await ensurePrivateDir(target);
    for (const name of await filesOf(w.dir, w.id)) await rename(join(w.dir, name), join(target, name));
    w.dir = target;
    w.events = await openJsonlAppender(sessionFiles.events(target, w.id));
    located.set(w.id, { dir: target, messageCount: w.messageCount });
  }

  async function checkLease(w: Writer): Promise<void> {
    const mine = held.get(w.id);
    const holder = mine ? await lostLock(paths.lockFile(w.id), mine.token) : { surface: 'nobody (the lease was released)' };
    if (holder) w.lost = holder.surface;
    if (w.lost)
      throw new SessionError('ASSISTANT_SESSION_TAKEN_OVER', `session ${w.id.slice(0, 8)} was taken over by ${w.lost}; this surface stopped writing to it (resume it here with --take-over)`, {
        plugin: PLUGIN,
      });
  }

  async function loadFrom(dir: string, id: string): Promise<SessionSnapshot | undefined> {
    const snapshot = await readSession(dir, id);
    if (snapshot) located.set(id, { dir, messageCount: snapshot.messages.length });
    return snapshot;
  }

  async function summaries(query: SessionListQuery): Promise<SessionSummary[]> {
    const dirs = query.allProjects || !query.projectRoot ? await paths.allSessionDirs() : [paths.sessionsDir(query.projectRoot)];
    const found: SessionSummary[] = [];
    for (const dir of dirs) {
      const ids = await sessionIdsIn(dir);
      const rows = await mapInBatches(ids, 64, async (id) => {
        const meta = await readMeta(dir, id);
        if (meta) {
          // A writer rewrites metadata at most once a second; the event file says when it last grew.
          const mtime = (await stat(sessionFiles.events(dir, id)).catch(() => undefined))?.mtimeMs ?? 0;
          return mtime > meta.lastActiveAt ? { ...meta, lastActiveAt: Math.floor(mtime) } : meta;
        }
        try {
          const snapshot = await loadFrom(dir, id);
          return snapshot ? sessionSummary(snapshot.info, snapshot.messages.length) : undefined;
        } catch (error) {
          logger.warn(`skipping an unreadable session: ${(error as Error).message}`);
          return undefined;
        }
      });
      for (const row of rows) if (row) found.push(row);
    }
    found.sort((a, b) => b.lastActiveAt - a.lastActiveAt);
    const limited = query.limit ? found.slice(0, query.limit) : found;
    const lockDir = join(root, 'locks');
    const locked = new Set((await readdir(lockDir).catch(() => [] as string[])).map((n) => basename(n, '.lock')));
    for (const row of limited) {
      if (!locked.has(row.id)) continue;
      const holder = await readLock(paths.lockFile(row.id));
      if (holder && holder.token !== held.get(row.id)?.token && holderAlive(holder)) row.inUseBy = holder.surface;
    }
    return limited;
  }

  /** Closes a session's side-channel files; the next append reopens them. */
  async function closeChannels(sessionId: string): Promise<void> {
    const keys = [...channels.keys()].filter((key) => key.startsWith(`${sessionId}:`));
    // In the channel's own queue, so an append in flight finishes first.
    for (const key of keys)
      await serial(key, async () => {
        const appender = channels.get(key);
        channels.delete(key);
        await appender?.close();
      });
  }

  async function closeWriter(w: Writer): Promise<void> {
    writers.delete(w.id);
    try {
      await w.events.sync();
      // A surface that was taken over must not put its stale summary over the new holder's.
      const mine = held.get(w.id);
      if (!w.lost && mine && (await lostLock(paths.lockFile(w.id), mine.token))) w.lost = 'another surface';
      if (!w.lost && w.metaStale) await writeMeta(w);
    } finally {
      await w.events.close();
    }
  }

  async function deleteSession(id: string): Promise<boolean> {
    const dir = await findDir(id);
    if (!dir) return false;
    const holder = await readLock(paths.lockFile(id));
    const mine = held.get(id);
    if (holder && holder.token !== mine?.token && holderAlive(holder))
      throw new SessionError('ASSISTANT_SESSION_IN_USE', `session ${id.slice(0, 8)} is in use on ${holder.surface} (pid ${holder.pid}); it was not deleted`, { plugin: PLUGIN });
    const writer = writers.get(id);
    if (writer) await closeWriter(writer);
    await closeChannels(id);
    for (const name of await filesOf(dir, id)) await unlink(join(dir, name)).catch(() => undefined);
    await unlink(paths.lockFile(id)).catch(() => undefined);
    held.delete(id);
    located.delete(id);
    return true;
  }

  return {
    name: 'jsonl',

    append(event, info) {
      if (!SESSION_ID.test(info.id)) return Promise.reject(invalidId(info.id));
      return serial(info.id, async () => {
        let w: Writer;
        try {
          w = await openWriter(event, info);
        } catch (error) {
          if (error instanceof SessionError) throw error;
          throw unavailable(`cannot open session ${info.id.slice(0, 8)} for writing in ${paths.sessionsDir(info.projectRoot)}`, error);
        }
        if (w.lost || lockStampNow(w.id) !== lockStamps.get(w.id)) await checkLease(w);
        w.info = info;
        try {
          if (event.type === 'resume') await relocate(w, event.projectRoot);
          await w.events.append([{ t: Date.now(), e: event } satisfies Line]);
        } catch (error) {
          throw unavailable(`cannot append to ${w.events.path}`, error);
        }
        if (event.type === 'message') w.messageCount++;
        if (event.type === 'compaction' || event.type === 'rewind') w.messageCount = event.messages.length;
        w.metaStale = true;
        if (event.type === 'checkpoint') {
          try {
            await w.events.sync();
            // The metadata only speeds up listing (which also trusts the event file's mtime): throttled, off the per-turn path.
            if (event.reason !== 'tool_result' && Date.now() - w.metaWrittenAt >= META_INTERVAL_MS) await writeMeta(w);
          } catch (error) {
            throw unavailable(`cannot flush ${w.events.path}`, error);
          }
        } else if (event.type === 'session_start' || event.type === 'resume' || event.type === 'title') {
          await writeMeta(w).catch((error) => {
            throw unavailable(`cannot write ${sessionFiles.meta(w.dir, w.id)}`, error);
          });
        }
      });
    },

    async load(lookup) {
      if (lookup.kind === 'latest') {
        for (const row of await summaries({ projectRoot: lookup.projectRoot })) {
          const dir = await findDir(row.id, lookup.projectRoot);
          if (dir) return loadFrom(dir, row.id);
        }
        return undefined;
      }
      const dir = await findDir(lookup.id, lookup.projectRoot);
      return dir ? loadFrom(dir, lookup.id) : undefined;
    },

    async resolve(prefix, projectRoot) {
      const wanted = prefix.toLowerCase();
      if (!PREFIX.test(wanted)) return [];
      const here = (await sessionIdsIn(paths.sessionsDir(projectRoot))).filter((id) => id.startsWith(wanted));
      if (here.length) return here;
      const everywhere = new Set<string>();
      for (const dir of await paths.allSessionDirs()) for (const id of await sessionIdsIn(dir)) if (id.startsWith(wanted)) everywhere.add(id);
      return [...everywhere];
    },

    list: summaries,

    delete: (id) => serial(id, () => deleteSession(id)),

    prune: (query) => pruneSessions(summaries, (id) => serial(id, () => deleteSession(id)), query),

    async acquire(sessionId, options = {}): Promise<SessionLease> {
      if (!SESSION_ID.test(sessionId)) throw invalidId(sessionId);
      const record = await serial(sessionId, () => lock(sessionId, options.takeOver));
      return {
        sessionId,
        owner: ownerOf(record),
        release: () =>
          serial(sessionId, async () => {
            const writer = writers.get(sessionId);
            if (writer) await closeWriter(writer);
            await closeChannels(sessionId);
            await releaseLock(paths.lockFile(sessionId), record.token);
            held.delete(sessionId);
          }),
      };
    },

    async holder(sessionId) {
      if (!SESSION_ID.test(sessionId)) return undefined;
      const lock = await readLock(paths.lockFile(sessionId));
      if (!lock || !holderAlive(lock)) return undefined;
      return { owner: ownerOf(lock), mine: lock.token === held.get(sessionId)?.token };
    },

    appendRecords(sessionId, channel, records: Json[], options = {}) {
      if (!CHANNEL.test(channel)) return Promise.reject(new SessionError('ASSISTANT_INTERNAL', `invalid side-channel name "${channel}"`, { plugin: PLUGIN }));
      if (!SESSION_ID.test(sessionId)) return Promise.reject(invalidId(sessionId));
      const key = `${sessionId}:${channel}`;
      return serial(key, async () => {
        let appender = channels.get(key);
        if (!appender) {
          const dir = writers.get(sessionId)?.dir ?? (await findDir(sessionId));
          if (!dir) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no session ${sessionId} to attach ${channel} records to`, { plugin: PLUGIN });
          appender = await openJsonlAppender(sessionFiles.channel(dir, sessionId, channel));
          channels.set(key, appender);
        }
        try {
          await appender.append(records);
          if (options.durable !== false) await appender.sync();
        } catch (error) {
          throw unavailable(`cannot append to ${appender.path}`, error);
        }
      });
    },

    async readRecords(sessionId, channel) {
      if (!CHANNEL.test(channel)) return [];
      const dir = await findDir(sessionId);
      if (!dir) return [];
      const contents = await readJsonl<Json>(sessionFiles.channel(dir, sessionId, channel));
      for (const warning of contents?.warnings ?? []) logger.warn(warning);
      return contents?.records.map((r) => r.value) ?? [];
    },

    async close() {
      const errors: unknown[] = [];
      for (const w of [...writers.values()]) await serial(w.id, () => closeWriter(w)).catch((e) => errors.push(e));
      // A side channel holds nothing unflushed but records appended with `durable: false` (the others
      // were flushed before their append resolved): those are the OS's to write back, and a flush here
      // would only hold up the exit.
      for (const [key, appender] of channels) await serial(key, () => appender.close()).catch((e) => errors.push(e));
      channels.clear();
      for (const [id, record] of held) await releaseLock(paths.lockFile(id), record.token).catch((e) => errors.push(e));
      held.clear();
      if (errors.length) throw unavailable('closing the session store failed', errors[0]);
    },
  };
}
