import { AssistantError, realPath, type Message, type SessionEvent, type SessionStore } from '../../core/index.js';
import { assemble, BlobWriter, isEmptyRef, readChunks } from './blobs.js';
import { CHECKPOINT_ERRORS } from './errors.js';
import { appendIndex, livePrompts, readTimeline, type IndexRecord, type PromptEntry, type Timeline } from './records.js';
import { applyCodeRestore, planCodeRestore } from './restore.js';

/** What to restore. */
export interface RewindRequest {
  /** The prompt to go back to before, numbered from 1 as `/rewind` lists them. */
  prompt: number;
  code: boolean;
  conversation: boolean;
  /** Overwrite files changed after the agent last wrote them. */
  force: boolean;
}

/** What a rewind did. */
export interface RewindOutcome {
  /** The prompt rewound to. */
  target: PromptEntry;
  /** Files written back, and files deleted (they did not exist before). */
  restored: string[];
  deleted: string[];
  /** The conversation was cut back to before the prompt. */
  conversation: boolean;
  /** Effects of the rewound prompts no rewind undoes (commands that ran). */
  untracked: string[];
}

/** Where the rewind happens: the session's store and id, its project, and how to record the conversation's new state. */
export interface RewindTarget {
  store: SessionStore;
  sessionId: string;
  projectRoot: string;
  /** Records an event in the session (the live session's `record`, or an append to the stored one). */
  record(event: SessionEvent): Promise<void>;
}

/** Files changed after the agent last wrote them stopped a rewind; `files` lists them. */
export class RewindConflict extends AssistantError {
  constructor(readonly files: string[]) {
    super(
      CHECKPOINT_ERRORS.ASSISTANT_REWIND_CONFLICT,
      `these files changed after the agent last wrote them, and the rewind would overwrite them: ${files.join(', ')}; nothing was restored (confirm to overwrite them)`,
      { plugin: 'checkpoints' },
    );
    this.name = 'RewindConflict'; // the bundles rename classes
  }
}

/** The prompt `n` (from 1) of the conversation, or a coded error listing what there is. */
export function promptNumbered(timeline: Timeline, n: number): PromptEntry {
  const live = livePrompts(timeline);
  const found = Number.isInteger(n) && n >= 1 ? live[n - 1] : undefined;
  if (!found)
    throw new AssistantError(
      CHECKPOINT_ERRORS.ASSISTANT_REWIND_NO_PROMPT,
      live.length ? `there is no prompt ${n}: this session's checkpoints are prompts 1 to ${live.length}` : 'this session has no checkpoints to rewind to (checkpoints are kept from the first prompt on, in sessions with a store)',
      { plugin: 'checkpoints' },
    );
  return found;
}

/** Effects of prompt `seq` and later that a rewind cannot undo. */
export function untrackedSince(timeline: Timeline, seq: number): string[] {
  return [...new Set(timeline.prompts.filter((p) => p.seq >= seq).flatMap((p) => p.untracked))];
}

/**
 * Rewinds a session to just before a prompt: the files (verified against their hashes, written
 * atomically, all checked before any is written) and/or the conversation (a `rewind` event, so a
 * resume sees it). Files changed after the agent wrote them stop it (ASSISTANT_REWIND_CONFLICT,
 * naming them) unless `force`.
 */
export async function rewind(target: RewindTarget, request: RewindRequest): Promise<RewindOutcome> {
  const { store, sessionId } = target;
  const root = realPath(target.projectRoot);
  const timeline = await readTimeline(store, sessionId);
  const prompt = promptNumbered(timeline, request.prompt);
  const plan = request.code ? await planCodeRestore(timeline, prompt.seq, root) : [];
  const conflicts = plan.filter((f) => f.changedSince);
  if (conflicts.length && !request.force) throw new RewindConflict(conflicts.map((f) => f.key));
  const chunks = plan.some((f) => f.before) || request.conversation ? await readChunks(store, sessionId) : new Map<string, string>();
  const history = request.conversation ? historyBefore(timeline, prompt, chunks, request.prompt) : undefined;
  const files = await applyCodeRestore(plan, chunks, root);
  const records: IndexRecord[] = [];
  if (history) {
    await target.record({ type: 'rewind', messages: history, prompt: request.prompt });
    await target.record({ type: 'checkpoint', reason: 'turn_end' });
    // The rewound history starts a new epoch: later prompts' deltas build on it.
    const n = Math.max(0, ...timeline.epochs.keys()) + 1;
    const base = await new BlobWriter(store, sessionId, timeline.chunks).put(Buffer.from(JSON.stringify(history)));
    records.push({ k: 'epoch', seq: prompt.seq, n, length: history.length, base });
  }
  records.push({ k: 'rewind', seq: prompt.seq, time: Date.now(), code: request.code, conversation: request.conversation, files });
  await appendIndex(store, sessionId, records);
  return {
    target: prompt,
    restored: files.filter((f) => f.hash !== null).map((f) => f.path),
    deleted: files.filter((f) => f.hash === null).map((f) => f.path),
    conversation: request.conversation,
    untracked: untrackedSince(timeline, prompt.seq),
  };
}

/** The conversation just before `prompt`: its epoch's start plus the deltas of the epoch's prompts up to it, checked against the recorded length. */
function historyBefore(timeline: Timeline, prompt: PromptEntry, chunks: Map<string, string>, n: number): Message[] {
  const what = `the conversation before prompt ${n}`;
  const start = timeline.epochs.get(prompt.epoch);
  const parts = [start ? parseMessages(assemble(start.base, chunks, what)) : []];
  for (const p of timeline.prompts) if (p.epoch === prompt.epoch && p.seq <= prompt.seq) parts.push(isEmptyRef(p.delta) ? [] : parseMessages(assemble(p.delta, chunks, what)));
  const history = parts.flat();
  if (history.length !== prompt.index || (prompt.epoch > 0 && !start))
    throw new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_CHECKPOINT_CORRUPT, `${what} cannot be rebuilt from the saved checkpoints (${history.length} messages where ${prompt.index} were recorded); nothing was restored`, { plugin: 'checkpoints' });
  return history;
}

function parseMessages(data: Buffer): Message[] {
  let value: unknown;
  try {
    value = JSON.parse(data.toString('utf8'));
  } catch {
    value = undefined; // hashes can match a forged record pointing at other content (a saved file's)
  }
  if (!Array.isArray(value) || !value.every((m) => typeof m === 'object' && m !== null && typeof (m as Message).role === 'string' && Array.isArray((m as Message).content)))
    throw new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_CHECKPOINT_CORRUPT, 'the saved conversation is not a list of messages; nothing was restored', { plugin: 'checkpoints' });
  return value as Message[];
}
