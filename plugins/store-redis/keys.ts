/**
 * Key names. Every key of one session shares the hash tag `{id}`, so a session lives in one slot
 * (and its MULTI blocks stay valid) should the keys ever be spread over a cluster.
 */
export function keys(prefix: string) {
  const session = (id: string) => `${prefix}s:{${id}}`;
  return {
    /** Stream of the session's events, entry ids `0-<seq>`. */
    events: (id: string) => `${session(id)}:events`,
    /** JSON summary (title, times, counts) for listing without reading the stream. */
    meta: (id: string) => `${session(id)}:meta`,
    /** List of one side channel's JSON records. */
    channel: (id: string, channel: string) => `${session(id)}:ch:${channel}`,
    /** Set of the side-channel names a session has. */
    channels: (id: string) => `${session(id)}:channels`,
    /** The lease: which surface writes the session, with an expiry renewed by heartbeat. */
    lease: (id: string) => `${prefix}lease:{${id}}`,
    /** Sorted set per project: session id → last activity. */
    project: (hash: string) => `${prefix}project:${hash}`,
    /** Sorted set of every session: id → last activity (newest first listing across projects). */
    recent: () => `${prefix}recent`,
    /** Sorted set of every session id at score 0, for prefix lookups (ZRANGEBYLEX). */
    ids: () => `${prefix}ids`,
  };
}

/** The key names for one prefix. */
export type Keys = ReturnType<typeof keys>;

/** Stream entry id for a session-local sequence number: `0-<seq>`, strictly increasing, so a retried XADD is recognised. */
export const entryId = (seq: number) => `0-${seq}`;
export const seqOf = (id: string) => Number(id.split('-')[1]);

/** A stream entry's fields (`[name, value, name, value…]`) as an object. */
export function fieldsOf(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i]!] = list[i + 1]!;
  return out;
}
