import { readdir, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type Json, type SessionEvent } from '../../core/index.js';
import { openJsonlAppender, readJsonl, type JsonlAppender } from '../../core/kits/store/index.js';

/** What waits in the spool while Redis is unreachable, in the order it happened. */
export type SpoolEntry =
  | { kind: 'event'; seq: number; t: number; e: SessionEvent; w: string }
  | { kind: 'records'; channel: string; records: Json[] };

/** A local, fsynced outbox of one session: events and records not yet in Redis. */
export interface Spool {
  readonly path: string;
  /** Entries written since the spool was last cleared (0 when empty). */
  readonly pending: number;
  append(entry: SpoolEntry, durable: boolean): Promise<void>;
  entries(): Promise<SpoolEntry[]>;
  /** Empties the spool once every entry is in Redis. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** The spool of session `id` under `dir` (entries survive the process, and sync on a later start). */
export async function openSpool(dir: string, id: string): Promise<Spool> {
  const path = join(dir, `${id}.jsonl`);
  let appender: JsonlAppender | undefined;
  let pending = (await readJsonl(path))?.records.length ?? 0;
  return {
    path,
    get pending() {
      return pending;
    },
    async append(entry, durable) {
      appender ??= await openJsonlAppender(path);
      await appender.append([entry]);
      if (durable) await appender.sync();
      pending++;
    },
    async entries() {
      return ((await readJsonl<SpoolEntry>(path))?.records ?? []).map((r) => r.value);
    },
    async clear() {
      await appender?.close();
      appender = undefined;
      await unlink(path).catch(() => undefined);
      pending = 0;
    },
    async close() {
      await appender?.sync();
      await appender?.close();
      appender = undefined;
    },
  };
}

/** Session ids with a spool file left in `dir`. */
export async function spooledSessions(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).map((n) => basename(n, '.jsonl'));
}
