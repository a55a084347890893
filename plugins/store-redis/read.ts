// Reading sessions from Redis: loading, listing and resolving ids. Reading needs no lease, so none
// of this touches the writers' state; the store passes what it knows (its own lease tokens).
import type { Redis } from 'ioredis';
import { SessionError, projectHash, type SessionEvent, type SessionOwner, type SessionListQuery, type SessionSnapshot, type SessionSummary } from '../../core/index.js';
import { snapshotFromEvents } from '../../core/kits/store/index.js';
import { fieldsOf, seqOf, type Keys } from './keys.js';
import { holderAlive, parseLease } from './lease.js';
import { openSpool } from './spool.js';

const PLUGIN = 'store-redis';

/** A session's snapshot from its stream, plus the events spooled locally and not yet sent; undefined when Redis has none. */
export async function loadSession(redis: Redis, k: Keys, spoolDir: string, id: string): Promise<SessionSnapshot | undefined> {
  const entries = await redis.xrange(k.events(id), '-', '+');
  if (!entries.length) return undefined;
  const warnings: string[] = [];
  const records: Array<{ event: SessionEvent; time: number }> = [];
  for (const [entry, list] of entries) {
    const fields = fieldsOf(list);
    try {
      records.push({ event: JSON.parse(fields.e!) as SessionEvent, time: Number(fields.t) });
    } catch {
      warnings.push(`${k.events(id)} entry ${entry}: not a valid record; skipped`);
    }
  }
  // Events spooled locally and not yet in Redis belong to the session too.
  const spool = await openSpool(spoolDir, id);
  const last = seqOf(entries[entries.length - 1]![0]);
  for (const entry of await spool.entries()) if (entry.kind === 'event' && entry.seq > last) records.push({ event: entry.e, time: entry.t });
  const snapshot = snapshotFromEvents(records);
  if (!snapshot) throw new SessionError('ASSISTANT_SESSION_CORRUPT', `${k.events(id)} in Redis does not start with the start of a session`, { plugin: PLUGIN });
  snapshot.warnings.push(...warnings);
  return snapshot;
}

/**
 * The summaries the query selects, newest first, each naming the live surface holding it (but this
 * store: `ownToken` is the token of our own lease). Index entries of expired sessions are dropped.
 */
export async function listSessions(redis: Redis, k: Keys, query: SessionListQuery, ownToken: (id: string) => string | undefined): Promise<SessionSummary[]> {
  const index = query.allProjects || !query.projectRoot ? k.recent() : k.project(projectHash(query.projectRoot));
  const ids = await redis.zrevrange(index, 0, query.limit ? query.limit * 2 + 10 : -1);
  if (!ids.length) return [];
  const metas = await redis.mget(ids.map((id) => k.meta(id)));
  const holders = await redis.mget(ids.map((id) => k.lease(id)));
  const rows: SessionSummary[] = [];
  const expired: string[] = [];
  ids.forEach((id, i) => {
    if (!metas[i]) return void expired.push(id);
    const row = JSON.parse(metas[i]!) as SessionSummary;
    const holder = parseLease(holders[i] ?? null);
    if (holder && holder.token !== ownToken(id) && holderAlive(holder)) row.inUseBy = holder.surface;
    rows.push(row);
  });
  if (expired.length) await redis.multi().zrem(index, ...expired).zrem(k.recent(), ...expired).zrem(k.ids(), ...expired).exec();
  rows.sort((a, b) => b.lastActiveAt - a.lastActiveAt);
  return query.limit ? rows.slice(0, query.limit) : rows;
}

/** Full ids starting with `prefix`: this project's when any are, else every project's. */
export async function resolveIds(redis: Redis, k: Keys, prefix: string, projectRoot: string): Promise<string[]> {
  const wanted = prefix.toLowerCase();
  if (!/^[0-9a-f-]{1,36}$/.test(wanted)) return [];
  const ids = await redis.zrangebylex(k.ids(), `[${wanted}`, `[${wanted}\xff`);
  if (!ids.length) return [];
  const metas = await redis.mget(ids.map((id) => k.meta(id)));
  const live = ids.map((id, i) => ({ id, meta: metas[i] ? (JSON.parse(metas[i]!) as SessionSummary) : undefined })).filter((r) => r.meta);
  const here = live.filter((r) => r.meta!.projectHash === projectHash(projectRoot));
  return (here.length ? here : live).map((r) => r.id);
}

/** Who holds a session's lease, if a live surface does; `mine`: it is our own lease (`ownRaw`, as stored). */
export async function leaseHolder(redis: Redis, k: Keys, id: string, ownRaw: string | undefined): Promise<{ owner: SessionOwner; mine: boolean } | undefined> {
  const raw = await redis.get(k.lease(id));
  const value = parseLease(raw);
  if (!value || !holderAlive(value)) return undefined;
  const { token: _token, startTicks: _ticks, ...owner } = value;
  return { owner, mine: raw === ownRaw };
}
