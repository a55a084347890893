import type { Json, SessionStore } from '../../core/index.js';
import { isEmptyRef, type BlobRef } from './blobs.js';

/** The side channel of the checkpoint index: prompts, files saved, writes seen, rewinds. */
export const INDEX_CHANNEL = 'checkpoints';

/**
 * One record of the index, in the order things happened. `seq` numbers a session's prompts for
 * good (1, 2, …, never reused, even after a rewind); `path` is relative to the project root.
 */
export type IndexRecord =
  /**
   * A prompt began at `index` of the history of `epoch`; `delta` holds the messages since the
   * previous prompt of that epoch (or its start), so the history before any prompt can be rebuilt
   * without saving it whole each time. No messages (a new session's first prompt) is `emptyRef()`,
   * so such a prompt stores no blob; earlier versions stored the content `[]`, which still reads.
   */
  | { k: 'prompt'; seq: number; time: number; text: string; epoch: number; index: number; delta: BlobRef }
  /** The history was replaced (a compaction, a rewind) by `base` (`length` messages): epoch `n` starts. */
  | { k: 'epoch'; seq: number; n: number; length: number; base: BlobRef }
  /** The content of a file before the prompt first changed it; `before: null` when it did not exist. */
  | { k: 'file'; seq: number; path: string; before: BlobRef | null; mode?: number }
  /** What a file held after a tool wrote it (`null`: absent), to tell the agent's writes from others'. */
  | { k: 'wrote'; seq: number; path: string; hash: string | null }
  /** A tool with effects no checkpoint can undo ran (a command, a write outside the project). */
  | { k: 'untracked'; seq: number; tool: string; what: string }
  /** A rewind to before prompt `seq`; `files` says what each restored file now holds. */
  | { k: 'rewind'; seq: number; time: number; code: boolean; conversation: boolean; files: Array<{ path: string; hash: string | null }> };

/** One prompt as the timeline knows it. */
export interface PromptEntry {
  seq: number;
  time: number;
  text: string;
  epoch: number;
  /** Where the prompt's message sits in its epoch's history. */
  index: number;
  delta: BlobRef;
  /** First content saved per file in this prompt. */
  files: Map<string, { before: BlobRef | null; mode?: number }>;
  /** Last content written per file in this prompt. */
  wrote: Map<string, string | null>;
  /** Effects no checkpoint undoes: "Bash: npm install", "Write /tmp/x (outside the project)". */
  untracked: string[];
  /** Still in the conversation (not cut off by a conversation rewind). */
  live: boolean;
}

/** A session's checkpoints, rebuilt from its index. */
export interface Timeline {
  /** Every prompt ever recorded, by `seq`. */
  prompts: PromptEntry[];
  /** What each file held after the agent's last write or restore (`null`: absent). */
  expected: Map<string, string | null>;
  /** The start of each epoch after the first (history replaced by a compaction or rewind). */
  epochs: Map<number, { length: number; base: BlobRef }>;
  /** Chunks the blob channel already holds. */
  chunks: Set<string>;
  /** Problems met while reading (damaged records), for people. */
  warnings: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isAnyRef = (v: unknown): v is BlobRef =>
  isObject(v) && typeof v.hash === 'string' && isCount(v.size) && Array.isArray(v.chunks) && v.chunks.every((c) => typeof c === 'string');
/** A stored content: always at least one chunk (an empty file has one, of no bytes). */
const isRef = (v: unknown): v is BlobRef => isAnyRef(v) && v.chunks.length > 0;
/** A prompt's delta: stored JSON (never empty, `[]` at least), or exactly the empty ref for no messages. */
const isDelta = (v: unknown): v is BlobRef => isAnyRef(v) && (v.chunks.length > 0 ? v.size > 0 : isEmptyRef(v));
const hashOrNull = (v: unknown) => v === null || typeof v === 'string';

/** True when a stored record has the shape the timeline relies on (the index is user data and may be damaged). */
export function isIndexRecord(v: unknown): v is IndexRecord {
  if (!isObject(v) || typeof v.seq !== 'number' || !Number.isInteger(v.seq)) return false;
  switch (v.k) {
    case 'prompt':
      return typeof v.time === 'number' && typeof v.text === 'string' && isCount(v.epoch) && isCount(v.index) && isDelta(v.delta);
    case 'epoch':
      return isCount(v.n) && isCount(v.length) && isRef(v.base);
    case 'file':
      return typeof v.path === 'string' && (v.before === null || isRef(v.before));
    case 'wrote':
      return typeof v.path === 'string' && hashOrNull(v.hash);
    case 'untracked':
      return typeof v.tool === 'string' && typeof v.what === 'string';
    case 'rewind':
      return typeof v.code === 'boolean' && typeof v.conversation === 'boolean' && Array.isArray(v.files) && v.files.every((f) => isObject(f) && typeof f.path === 'string' && hashOrNull(f.hash));
    default:
      return false;
  }
}

/** Replays index records into a timeline; damaged records are skipped and reported. */
export function buildTimeline(records: readonly unknown[]): Timeline {
  const timeline: Timeline = { prompts: [], expected: new Map(), epochs: new Map(), chunks: new Set(), warnings: [] };
  const bySeq = new Map<number, PromptEntry>();
  records.forEach((record, i) => {
    if (!isIndexRecord(record)) return void timeline.warnings.push(`checkpoint record ${i + 1} is damaged; skipped`);
    const prompt = bySeq.get(record.seq);
    switch (record.k) {
      case 'prompt': {
        const { seq, time, text, epoch, index, delta } = record;
        const entry: PromptEntry = { seq, time, text, epoch, index, delta, files: new Map(), wrote: new Map(), untracked: [], live: true };
        bySeq.set(record.seq, entry);
        timeline.prompts.push(entry);
        delta.chunks.forEach((c) => timeline.chunks.add(c));
        break;
      }
      case 'epoch':
        timeline.epochs.set(record.n, { length: record.length, base: record.base });
        record.base.chunks.forEach((c) => timeline.chunks.add(c));
        break;
      case 'file':
        if (prompt && !prompt.files.has(record.path)) prompt.files.set(record.path, { before: record.before, ...(record.mode !== undefined ? { mode: record.mode } : {}) });
        record.before?.chunks.forEach((c) => timeline.chunks.add(c));
        break;
      case 'wrote':
        prompt?.wrote.set(record.path, record.hash);
        timeline.expected.set(record.path, record.hash);
        break;
      case 'untracked':
        prompt?.untracked.push(`${record.tool}: ${record.what}`);
        break;
      case 'rewind':
        if (record.conversation) for (const p of timeline.prompts) if (p.seq >= record.seq) p.live = false;
        for (const f of record.files) timeline.expected.set(f.path, f.hash);
        break;
    }
  });
  return timeline;
}

/** The latest epoch, and where its next prompt's delta starts (after its last prompt, or its base). */
export function currentEpoch(timeline: Timeline): { epoch: number; from: number } {
  const epoch = Math.max(0, ...timeline.epochs.keys());
  const last = timeline.prompts.filter((p) => p.epoch === epoch).at(-1);
  return { epoch, from: last ? last.index : (timeline.epochs.get(epoch)?.length ?? 0) };
}

/** Reads a session's checkpoint index (empty when it has none). */
export async function readTimeline(store: SessionStore, sessionId: string): Promise<Timeline> {
  return buildTimeline(await store.readRecords(sessionId, INDEX_CHANNEL));
}

/** The prompts still in the conversation, numbered from 1 as `/rewind` shows them. */
export function livePrompts(timeline: Timeline): PromptEntry[] {
  return timeline.prompts.filter((p) => p.live);
}

/** Files a prompt changed: saved before it and written to something else. */
export function changedFiles(prompt: PromptEntry): string[] {
  return [...prompt.files].filter(([path, { before }]) => prompt.wrote.has(path) && prompt.wrote.get(path) !== (before ? before.hash : null)).map(([path]) => path)
    .sort();
}

/** Appends index records (durable when it resolves). */
export function appendIndex(store: SessionStore, sessionId: string, records: IndexRecord[]): Promise<void> {
  return store.appendRecords(sessionId, INDEX_CHANNEL, records as unknown as Json[]);
}
