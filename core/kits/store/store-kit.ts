import type { SessionInfo, SessionListQuery, SessionSummary } from '../../types/session.js';

/** Helpers every session store needs; exported so third-party stores get them too. */

/** Runs tasks one after another per key (one session's writes never interleave), keys in parallel. */
export function keyedQueue(): <T>(key: string, task: () => Promise<T>) => Promise<T> {
  const queues = new Map<string, Promise<unknown>>();
  return (key, task) => {
    const next = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(task);
    queues.set(key, next);
    // Drop the entry once idle, so long-lived stores do not keep one per session ever written.
    void next.finally(() => queues.get(key) === next && queues.delete(key)).catch(() => undefined);
    return next;
  };
}

/** The listing summary of a session. */
export function sessionSummary(info: SessionInfo, messageCount: number): SessionSummary {
  const { id, projectRoot, projectHash, title, createdAt, lastActiveAt, model, provider, forkedFrom } = info;
  return { id, projectRoot, projectHash, title, createdAt, lastActiveAt, messageCount, model, provider, forkedFrom };
}

/** Deletes the listed sessions idle since before `query.before`, skipping those in use; returns what was deleted. */
export async function pruneSessions(
  list: (query: SessionListQuery) => Promise<SessionSummary[]>,
  remove: (id: string) => Promise<boolean>,
  query: SessionListQuery & { before: number },
): Promise<SessionSummary[]> {
  const deleted: SessionSummary[] = [];
  for (const row of await list({ ...query, limit: undefined })) {
    if (row.lastActiveAt >= query.before || row.inUseBy) continue;
    if (await remove(row.id).catch(() => false)) deleted.push(row);
  }
  return deleted;
}
