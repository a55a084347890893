import type { ChainableCommander, Redis } from 'ioredis';
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
  type SessionStore,
  type SessionSummary,
} from '../../core/index.js';
import { keyedQueue, pruneSessions, sessionSummary, ensurePrivateDir } from '../../core/kits/store/index.js';
import { connection, unreachable } from './connection.js';
import { entryId, fieldsOf, keys, seqOf } from './keys.js';
import { FENCED_XADD, Lease, holderAlive, inUseError, parseLease } from './lease.js';
import { openSpool, spooledSessions, type Spool, type SpoolEntry } from './spool.js';
import { leaseHolder, listSessions, loadSession, resolveIds } from './read.js';

/** The Redis store's settings (`persistence.redis`). */
export interface RedisStoreOptions {
  url: string;
  keyPrefix: string;
  /** Sessions expire after this long without activity. */
  ttlSeconds: number;
  /** The lease expires this long after its holder's last heartbeat (a crashed surface frees the session). */
  leaseSeconds: number;
  /** When Redis is unreachable: keep working and spool locally (`spool`), or stop with an error (`stop`). Neither drops events. */
  onDisconnect: 'spool' | 'stop';
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  /** Where unsent events wait (fsynced) while Redis is unreachable. */
  spoolDir: string;
}

/** A session this process writes. */
interface Writer {
  id: string;
  info: SessionInfo;
  seq: number;
  messageCount: number;
  /** The project index the session is listed under in Redis. */
  indexedHash?: string;
  lease: Lease;
  /** The lease could not be claimed yet (Redis was down when the session started). */
  leasePending: boolean;
  spool: Spool;
  channels: Set<string>;
}

const PLUGIN = 'store-redis';
const CHANNEL = /^[a-z][a-z0-9-]{0,31}$/;
/** A full session id (a lowercase UUID): a prefix or anything else is never looked up. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const notAnId = (id: string) => new SessionError('ASSISTANT_SESSION_NOT_FOUND', `"${id.slice(0, 60)}" is not a session id`, { plugin: PLUGIN });

const takenOver = (id: string, by: string, spool?: Spool) =>
  new SessionError(
    'ASSISTANT_SESSION_TAKEN_OVER',
    `session ${id.slice(0, 8)} was taken over by ${by}; this surface stopped writing to it${spool?.pending ? ` (${spool.pending} unsent events are kept in ${spool.path})` : ''}`,
    { plugin: PLUGIN },
  );

/**
 * Sessions in Redis for teams and several surfaces: each session a Stream of events (entry ids
 * `0-<seq>`, so a retried write is recognised), a JSON summary, per-project and global sorted-set
 * indexes, side channels as lists, TTL on inactivity, and a lease per session. When Redis is
 * unreachable, events go to a local fsynced spool and are sent in order once it is back.
 */
export function createRedisStore(options: RedisStoreOptions, logger: Logger, owner?: SessionOwner): SessionStore {
  const k = keys(options.keyPrefix);
  const newLease = (id: string) => new Lease(conn.get(), k.lease(id), id, options.leaseSeconds * 1000, owner ?? currentOwner());
  /** Sessions claimed while Redis was unreachable (spool mode): claimed for real before anything is sent. */
  const provisional = new Set<string>();
  const ttlMs = options.ttlSeconds * 1000;
  const serial = keyedQueue();
  const writers = new Map<string, Writer>();
  const leases = new Map<string, Lease>();
  const located = new Map<string, { seq: number; messageCount: number; hash: string }>();
  let orphansChecked: Promise<void> | undefined;
  const conn = connection(options, logger, () => {
    for (const w of writers.values()) if (w.spool.pending || w.leasePending) void serial(w.id, () => flush(w)).catch((e) => logger.warn((e as Error).message));
    orphansChecked ??= recoverOrphans().catch((e) => logger.warn(`could not sync spooled sessions: ${(e as Error).message}`));
  });

  const touchSession = (m: ChainableCommander, w: Writer) => {
    const { id, info } = w;
    m.set(k.meta(id), JSON.stringify(sessionSummary(info, w.messageCount)), 'PX', ttlMs);
    m.pexpire(k.events(id), ttlMs);
    m.pexpire(k.channels(id), ttlMs);
    for (const ch of w.channels) m.pexpire(k.channel(id, ch), ttlMs);
    if (w.indexedHash && w.indexedHash !== info.projectHash) m.zrem(k.project(w.indexedHash), id);
    m.zadd(k.project(info.projectHash), info.lastActiveAt, id);
    m.pexpire(k.project(info.projectHash), ttlMs);
    m.zadd(k.recent(), info.lastActiveAt, id);
    m.zadd(k.ids(), 0, id);
  };

  /** Sends one event; a duplicate of our own earlier write (a retry) is fine, anyone else's is a conflict. */
  async function send(redis: Redis, w: Writer, entry: Extract<SpoolEntry, { kind: 'event' }>, touch: boolean): Promise<void> {
    const m = redis.multi();
    m.eval(FENCED_XADD, 2, k.lease(w.id), k.events(w.id), w.lease.raw, String(w.lease.ttlMs), entryId(entry.seq), JSON.stringify(entry.e), String(entry.t), entry.w);
    if (touch) touchSession(m, w);
    const results = (await m.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (!failed) {
      if (touch) w.indexedHash = w.info.projectHash;
      return;
    }
    const [error] = failed;
    const lost = /LEASE_LOST (.*)$/s.exec(error!.message);
    if (lost) {
      w.lease.lostTo = parseLease(lost[1]!)?.surface ?? 'another surface';
      w.lease.stop();
      throw takenOver(w.id, w.lease.lostTo, w.spool);
    }
    if (!/equal or smaller/i.test(error!.message)) throw error;
    const existing = await redis.xrange(k.events(w.id), entryId(entry.seq), entryId(entry.seq));
    const writer = existing[0] ? fieldsOf(existing[0][1]).w : undefined;
    if (writer === entry.w) return;
    w.lease.lostTo ??= 'another surface (it wrote the session meanwhile)';
    throw takenOver(w.id, w.lease.lostTo, w.spool);
  }

  async function sendRecords(redis: Redis, id: string, channel: string, records: Json[]): Promise<void> {
    if (!records.length) return;
    const m = redis.multi();
    m.rpush(k.channel(id, channel), ...records.map((r) => JSON.stringify(r)));
    m.sadd(k.channels(id), channel);
    m.pexpire(k.channel(id, channel), ttlMs);
    m.pexpire(k.channels(id), ttlMs);
    const failed = ((await m.exec()) ?? []).find(([error]) => error);
    if (failed) throw failed[0];
  }

  /** Sends everything spooled for a writer, in order, after making sure it still holds the lease. */
  async function flush(w: Writer): Promise<void> {
    if (!conn.ready()) return;
    const redis = conn.get();
    if (w.leasePending) {
      await w.lease.acquire(false).catch((error) => {
        if (error instanceof SessionError) w.lease.lostTo = 'another surface';
        throw error;
      });
      w.leasePending = false;
    } else await w.lease.renew();
    if (w.lease.lostTo) throw takenOver(w.id, w.lease.lostTo, w.spool);
    const entries = await w.spool.entries();
    for (const entry of entries) {
      if (entry.kind === 'event') await send(redis, w, entry, false);
      else await sendRecords(redis, w.id, entry.channel, entry.records);
    }
    if (entries.length) {
      const m = redis.multi();
      touchSession(m, w);
      await m.exec();
      w.indexedHash = w.info.projectHash;
      logger.info(`synced ${entries.length} spooled records of session ${w.id.slice(0, 8)} to Redis`);
    }
    await w.spool.clear();
  }

  /** Keeps an entry locally when Redis cannot take it; with `onDisconnect: stop`, then stops the run. */
  async function spoolEntry(w: Writer, entry: SpoolEntry, durable: boolean, cause?: unknown): Promise<void> {
    await ensurePrivateDir(options.spoolDir);
    const first = w.spool.pending === 0;
    await w.spool.append(entry, durable);
    if (first) logger.warn(`Redis is unreachable (${cause instanceof Error ? cause.message : conn.lastError()}); session ${w.id.slice(0, 8)} continues locally in ${w.spool.path} and syncs when Redis is back`);
    if (options.onDisconnect === 'stop') throw unreachable(options.url, conn.lastError(), `; the session stopped (persistence.redis.onDisconnect: stop), its unsent events are kept in ${w.spool.path} and sync on the next start`);
  }

  async function writerFor(event: SessionEvent, info: SessionInfo): Promise<Writer> {
    const existing = writers.get(info.id);
    if (existing) return existing;
    await conn.firstConnect();
    const lease = leases.get(info.id) ?? newLease(info.id);
    let leasePending = false;
    if (!leases.has(info.id)) {
      if (conn.ready()) await lease.acquire(false);
      else if (options.onDisconnect === 'spool') leasePending = true;
      else throw unreachable(options.url, conn.lastError());
      leases.set(info.id, lease);
    } else if (provisional.has(info.id)) leasePending = true;
    provisional.delete(info.id);
    const known = located.get(info.id);
    let seq = known?.seq ?? 0;
    if (!known && event.type !== 'session_start' && conn.ready()) {
      const last = await conn.get().xrevrange(k.events(info.id), '+', '-', 'COUNT', 1);
      seq = last[0] ? seqOf(last[0][0]) : 0;
    }
    const spool = await openSpool(options.spoolDir, info.id);
    for (const entry of await spool.entries()) if (entry.kind === 'event') seq = Math.max(seq, entry.seq);
    // Channels earlier runs wrote (checkpoints, audit) expire with the session only if each checkpoint renews them too.
    const channels = new Set(event.type !== 'session_start' && conn.ready() ? await conn.get().smembers(k.channels(info.id)) : []);
    const w: Writer = { id: info.id, info, seq, messageCount: known?.messageCount ?? 0, indexedHash: known?.hash, lease, leasePending, spool, channels };
    writers.set(info.id, w);
    return w;
  }

  /** Spools left by earlier processes: sent once Redis is reachable, under the session's lease. */
  async function recoverOrphans(): Promise<void> {
    for (const id of await spooledSessions(options.spoolDir)) {
      if (writers.has(id)) continue;
      await serial(id, async () => {
        const spool = await openSpool(options.spoolDir, id);
        const entries = await spool.entries();
        const firstEvent = entries.find((e): e is Extract<SpoolEntry, { kind: 'event' }> => e.kind === 'event');
        const lease = newLease(id);
        try {
          await lease.acquire(false);
        } catch (error) {
          logger.warn(`session ${id.slice(0, 8)} has unsent events in ${spool.path} but is held elsewhere: ${(error as Error).message}`);
          return;
        }
        try {
          const snapshot = await conn.whenReady().then((redis) => loadSession(redis, k, options.spoolDir, id)).catch(() => undefined);
          const info = snapshot?.info ?? (firstEvent?.e.type === 'session_start' ? firstEvent.e.info : undefined);
          if (!info) {
            logger.warn(`${spool.path}: cannot tell which session it belongs to; left in place`);
            return;
          }
          const w: Writer = { id, info, seq: 0, messageCount: snapshot?.messages.length ?? 0, indexedHash: snapshot?.info.projectHash, lease, leasePending: false, spool, channels: new Set() };
          for (const entry of entries) if (entry.kind === 'event') w.messageCount += entry.e.type === 'message' ? 1 : 0;
          await flush(w);
        } finally {
          await lease.release().catch(() => undefined);
        }
      });
    }
  }

  async function summaries(query: SessionListQuery): Promise<SessionSummary[]> {
    const redis = await conn.whenReady();
    await orphansChecked;
    return listSessions(redis, k, query, (id) => leases.get(id)?.value.token);
  }

  async function closeWriter(w: Writer): Promise<void> {
    writers.delete(w.id);
    leases.delete(w.id);
    try {
      if (conn.ready() && !w.lease.lostTo) {
        await flush(w);
        const m = conn.get().multi();
        touchSession(m, w);
        await m.exec();
      }
    } finally {
      await w.spool.close();
      if (w.spool.pending) logger.warn(`${w.spool.pending} events of session ${w.id.slice(0, 8)} are kept in ${w.spool.path}; they sync to Redis on the next start`);
      if (conn.ready()) await w.lease.release().catch(() => undefined);
      else w.lease.stop();
    }
  }

  async function deleteSession(id: string): Promise<boolean> {
    const redis = await conn.whenReady();
    const holder = parseLease(await redis.get(k.lease(id)));
    if (holder && holder.token !== leases.get(id)?.value.token && holderAlive(holder)) throw inUseError(id, holder);
    const writer = writers.get(id);
    if (writer) await closeWriter(writer);
    const meta = await redis.get(k.meta(id));
    const channels = await redis.smembers(k.channels(id));
    const m = redis.multi().del(k.events(id), k.meta(id), k.channels(id), k.lease(id), ...channels.map((c) => k.channel(id, c)));
    m.zrem(k.recent(), id).zrem(k.ids(), id);
    if (meta) m.zrem(k.project((JSON.parse(meta) as SessionSummary).projectHash), id);
    const results = (await m.exec()) ?? [];
    located.delete(id);
    return Number(results[0]?.[1] ?? 0) > 0;
  }

  return {
    name: 'redis',

    append(event, info) {
      if (!SESSION_ID.test(info.id)) return Promise.reject(notAnId(info.id));
      return serial(info.id, async () => {
        const w = await writerFor(event, info);
        if (w.lease.lostTo) throw takenOver(w.id, w.lease.lostTo, w.spool);
        w.info = info;
        if (event.type === 'message') w.messageCount++;
        if (event.type === 'compaction' || event.type === 'rewind') w.messageCount = event.messages.length;
        const entry = { kind: 'event' as const, seq: ++w.seq, t: Date.now(), e: event, w: w.lease.value.token };
        const checkpoint = event.type === 'checkpoint';
        const touch = checkpoint || event.type === 'session_start' || event.type === 'resume' || event.type === 'title';
        if (w.spool.pending && conn.ready()) await flush(w).catch((error) => {
          if (error instanceof SessionError) throw error;
        });
        if (w.spool.pending || w.leasePending || !conn.ready()) return spoolEntry(w, entry, checkpoint);
        try {
          await send(conn.get(), w, entry, touch);
        } catch (error) {
          if (error instanceof SessionError) throw error;
          return spoolEntry(w, entry, checkpoint, error);
        }
        if (checkpoint && w.lease.lostTo) throw takenOver(w.id, w.lease.lostTo, w.spool);
      });
    },

    async load(lookup) {
      if (lookup.kind === 'id' && !SESSION_ID.test(lookup.id)) return undefined;
      await conn.whenReady();
      await (orphansChecked ??= recoverOrphans());
      const id = lookup.kind === 'id' ? lookup.id : (await summaries({ projectRoot: lookup.projectRoot, limit: 1 }))[0]?.id;
      if (!id) return undefined;
      const snapshot = await loadSession(await conn.whenReady(), k, options.spoolDir, id);
      if (snapshot) {
        const last = await conn.get().xrevrange(k.events(id), '+', '-', 'COUNT', 1);
        const spool = await openSpool(options.spoolDir, id);
        let seq = last[0] ? seqOf(last[0][0]) : 0;
        for (const entry of await spool.entries()) if (entry.kind === 'event') seq = Math.max(seq, entry.seq);
        located.set(id, { seq, messageCount: snapshot.messages.length, hash: snapshot.info.projectHash });
      }
      return snapshot;
    },

    async resolve(prefix, projectRoot) {
      return resolveIds(await conn.whenReady(), k, prefix, projectRoot);
    },

    list: summaries,

    delete: async (id) => SESSION_ID.test(id) && serial(id, () => deleteSession(id)),

    prune: (query) => pruneSessions(summaries, (id) => serial(id, () => deleteSession(id)), query),

    async acquire(sessionId, opts = {}): Promise<SessionLease> {
      if (!SESSION_ID.test(sessionId)) throw notAnId(sessionId);
      await conn.firstConnect();
      // Unreachable in spool mode: a new session goes on locally; its lease is claimed before any of it is sent.
      const offline = !conn.ready() && options.onDisconnect === 'spool' && !opts.takeOver;
      if (!offline) await conn.whenReady();
      const lease = await serial(sessionId, async () => {
        const lease = leases.get(sessionId) ?? newLease(sessionId);
        if (offline) {
          if (!leases.has(sessionId)) provisional.add(sessionId);
        } else {
          await lease.acquire(Boolean(opts.takeOver));
          provisional.delete(sessionId);
        }
        leases.set(sessionId, lease);
        return lease;
      });
      const { token: _token, startTicks: _ticks, ...owner } = lease.value;
      return {
        sessionId,
        owner,
        release: () =>
          serial(sessionId, async () => {
            const writer = writers.get(sessionId);
            if (writer) await closeWriter(writer);
            else await lease.release();
            leases.delete(sessionId);
          }),
      };
    },

    holder: async (sessionId) => (SESSION_ID.test(sessionId) ? leaseHolder(await conn.whenReady(), k, sessionId, leases.get(sessionId)?.raw) : undefined),

    appendRecords(sessionId, channel, records, options = {}) {
      if (!CHANNEL.test(channel)) return Promise.reject(new SessionError('ASSISTANT_INTERNAL', `invalid side-channel name "${channel}"`, { plugin: PLUGIN }));
      if (!SESSION_ID.test(sessionId)) return Promise.reject(notAnId(sessionId));
      return serial(sessionId, async () => {
        const w = writers.get(sessionId);
        if (!w && !(await (await conn.whenReady()).exists(k.events(sessionId))))
          throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `no session ${sessionId} to attach ${channel} records to`, { plugin: PLUGIN });
        w?.channels.add(channel);
        const durable = options.durable !== false;
        if (w && (w.spool.pending || w.leasePending || !conn.ready())) return spoolEntry(w, { kind: 'records', channel, records }, durable);
        try {
          await sendRecords(w ? conn.get() : await conn.whenReady(), sessionId, channel, records);
        } catch (error) {
          if (!w || error instanceof SessionError) throw error;
          await spoolEntry(w, { kind: 'records', channel, records }, durable, error);
        }
      });
    },

    async readRecords(sessionId, channel) {
      if (!CHANNEL.test(channel) || !SESSION_ID.test(sessionId)) return [];
      const redis = await conn.whenReady();
      return (await redis.lrange(k.channel(sessionId, channel), 0, -1)).map((line) => JSON.parse(line) as Json);
    },

    async close() {
      for (const w of [...writers.values()]) await serial(w.id, () => closeWriter(w)).catch((e) => logger.warn((e as Error).message));
      for (const lease of leases.values()) await (conn.ready() ? lease.release().catch(() => undefined) : lease.stop());
      leases.clear();
      await orphansChecked?.catch(() => undefined);
      await conn.close();
    },
  };
}
