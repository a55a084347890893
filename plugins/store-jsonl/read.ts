// Reading a session from its files: the event file into a snapshot, and the metadata file. Reading
// needs no lock and keeps no state; damage is skipped and reported in the snapshot's warnings.
import { readFile } from 'node:fs/promises';
import { SessionError, type SessionEvent, type SessionSnapshot, type SessionSummary } from '../../core/index.js';
import { applySessionEvent, emptySnapshot, readJsonl } from '../../core/kits/store/index.js';
import { sessionFiles } from './layout.js';
import { recordEvent, recordProblem } from './records.js';

const PLUGIN = 'store-jsonl';

/** A session's metadata file (its summary for listing); undefined when missing or unreadable. */
export async function readMeta(dir: string, id: string): Promise<SessionSummary | undefined> {
  try {
    return JSON.parse(await readFile(sessionFiles.meta(dir, id), 'utf8')) as SessionSummary;
  } catch {
    return undefined;
  }
}

/**
 * Session `id` in `dir` as a snapshot; undefined when it has no event file. A torn or invalid record
 * is skipped with a warning; a damaged start is rebuilt from the metadata file; only a file with no
 * usable start fails, with ASSISTANT_SESSION_CORRUPT.
 */
export async function readSession(dir: string, id: string): Promise<SessionSnapshot | undefined> {
  const path = sessionFiles.events(dir, id);
  const contents = await readJsonl<unknown>(path);
  if (!contents) return undefined;
  const warnings = [...contents.warnings];
  const events: Array<{ event: SessionEvent; time: number }> = [];
  for (const record of contents.records) {
    const problem = recordProblem(record.value);
    if (problem) warnings.push(`${path}:${record.line}: ${problem}; skipped`);
    else events.push(recordEvent(record.value));
  }
  const start = events.findIndex((r) => r.event.type === 'session_start');
  if (start > 0) warnings.push(`${path}: ${start} record(s) before the start of the session; skipped`);
  let records = start >= 0 ? events.slice(start) : events;
  if (start < 0) {
    // The start record itself is damaged: the metadata file still knows the session.
    const meta = contents.records.length ? await readMeta(dir, id) : undefined;
    if (!meta || !events.length)
      throw new SessionError(
        'ASSISTANT_SESSION_CORRUPT',
        contents.records.length
          ? `${path}: not a session file (no readable record starts a session)`
          : `${path}: holds no complete record (the process stopped while creating the session); delete it with: assistant sessions delete ${id}`,
        { plugin: PLUGIN, file: path },
      );
    const { messageCount: _count, ...info } = meta;
    records = [{ event: { type: 'session_start', info: { ...info, id } }, time: meta.createdAt }, ...events];
    warnings.push(`${path}: the start of the session is damaged; its details were taken from ${sessionFiles.meta(dir, id)}`);
  }
  const snapshot = emptySnapshot((records[0]!.event as Extract<SessionEvent, { type: 'session_start' }>).info);
  for (const { event, time } of records) {
    try {
      applySessionEvent(snapshot, event, time);
    } catch (error) {
      warnings.push(`${path}: a ${event.type} record could not be applied (${(error as Error).message}); skipped`);
    }
  }
  snapshot.warnings.push(...warnings);
  return snapshot;
}
