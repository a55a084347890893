import { lstat, readFile } from 'node:fs/promises';
import { AssistantError, realPath, type Kernel, type Logger, type Message, type SessionEvent, type SessionStore, type ToolCallInfo, type ToolCallPart } from '../../core/index.js';
import type { SessionState } from '../../core/kits/agent/index.js';
import { BlobWriter, contentHash, emptyRef } from './blobs.js';
import { CHECKPOINT_ERRORS } from './errors.js';
import { projectKey } from './paths.js';
import { appendIndex, currentEpoch, readTimeline, type IndexRecord } from './records.js';
import { writeTargets } from './write-targets.js';

/** Files larger than this are not saved (a rewind cannot restore them, and says so). */
export const MAX_SAVED_BYTES = 16 * 1024 * 1024;

/** What one open session needs while it records checkpoints. */
interface Recording {
  sessionId: string;
  store: SessionStore;
  blobs: BlobWriter;
  /** The prompt running now (0 before the first). */
  seq: number;
  nextSeq: number;
  /** Files saved in the running prompt (keyed by project-relative path), each saved once. */
  saved: Map<string, Promise<void>>;
  /** Calls admitted with files to follow, until their results. */
  calls: Map<string, { seq: number; files: Array<{ key: string; path: string }>; untracked: Array<{ tool: string; what: string }> }>;
  /** The history's epoch (bumped by each compaction) and where the next prompt's delta starts. */
  epoch: number;
  from: number;
  /** Prompts not yet written: written before their first file, and at each checkpoint of the session. */
  pending: Array<{ seq: number; time: number; text: string; epoch: number; index: number; delta: Message[] }>;
  /** Serializes writes of the index. */
  flushing: Promise<void>;
}

/** A user's prompt (not steering, a reminder or a note the system added). */
function isPrompt(message: Message): boolean {
  return message.role === 'user' && (!message.meta?.origin || message.meta.origin === 'user');
}

/**
 * Records checkpoints for the open session: the conversation at each prompt, and each file's content
 * before the prompt's first change to it, from the paths any tool declares it writes (Edit,
 * MultiEdit, Write, a sub-agent's calls, third-party tools). Everything goes to the session's side
 * channels, so it works with every store and is removed with the session.
 */
export class CheckpointRecorder {
  private session: SessionState | undefined;
  private recording: Promise<Recording | undefined> | undefined;
  private readonly root: string;

  constructor(
    private readonly kernel: Kernel,
    private readonly logger: Logger,
  ) {
    this.root = realPath(kernel.projectRoot);
  }

  /** A session was opened (new, resumed, forked, cleared): checkpoints follow it from now. */
  open(session: SessionState): void {
    this.session = session;
    this.recording = undefined;
  }

  private start(): Promise<Recording | undefined> {
    const session = this.session;
    if (!session) return Promise.resolve(undefined);
    this.recording ??= (async () => {
      let store: SessionStore;
      try {
        store = this.kernel.store();
      } catch {
        return undefined; // No store (persistence.store: none): nothing to keep checkpoints in.
      }
      const timeline = await readTimeline(store, session.info.id);
      const last = timeline.prompts.reduce((max, p) => Math.max(max, p.seq), 0);
      const { epoch, from } = currentEpoch(timeline);
      const blobs = new BlobWriter(store, session.info.id, timeline.chunks);
      return { sessionId: session.info.id, store, blobs, seq: 0, nextSeq: last + 1, saved: new Map(), calls: new Map(), epoch, from, pending: [], flushing: Promise.resolve() };
    })();
    // A store that could not be read (a server away) is asked again next time, not given up on for the session.
    const started = this.recording;
    started.catch(() => {
      if (this.recording === started) this.recording = undefined;
    });
    return this.recording;
  }

  /**
   * An event of a session: a user's prompt starts a checkpoint (kept in memory until the prompt's
   * first file change or the session's next checkpoint, so a prompt costs no extra disk flush); a
   * compaction starts a new epoch of the history; a rewind makes the index be read again.
   */
  async event(event: SessionEvent, sessionId: string): Promise<void> {
    const session = this.session;
    if (!session || session.info.id !== sessionId) return;
    if (event.type === 'rewind') {
      this.recording = undefined;
      return;
    }
    if (event.type === 'checkpoint') return void (await this.flush().catch((error: unknown) => this.logger.warn(`checkpoints: could not save this session's prompts: ${(error as Error)?.message ?? error}`)));
    if (event.type !== 'compaction' && !(event.type === 'message' && isPrompt(event.message))) return;
    const rec = await this.start().catch(() => undefined);
    if (!rec) return;
    if (event.type === 'compaction') {
      await this.flush().catch(() => undefined);
      rec.epoch++;
      rec.from = event.messages.length;
      const n = rec.epoch;
      rec.flushing = rec.flushing.then(async () => {
        const base = await rec.blobs.put(Buffer.from(JSON.stringify(event.messages)));
        await appendIndex(rec.store, rec.sessionId, [{ k: 'epoch', seq: rec.seq, n, length: event.messages.length, base }]);
      });
      return;
    }
    const message = (event as Extract<SessionEvent, { type: 'message' }>).message;
    const at = session.messages.lastIndexOf(message);
    const index = at >= 0 ? at : session.messages.length;
    rec.seq = rec.nextSeq++;
    rec.saved = new Map();
    rec.calls.clear(); // calls of an earlier prompt that never ran (denied) have no result to wait for
    const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ').trim().slice(0, 500);
    rec.pending.push({ seq: rec.seq, time: Date.now(), text, epoch: rec.epoch, index, delta: session.messages.slice(Math.min(rec.from, index), index) });
    rec.from = index;
  }

  /** Writes the prompts kept in memory (before a file of theirs is saved, at checkpoints, before `/rewind` reads the index). */
  async flush(): Promise<void> {
    const rec = await this.recording;
    if (!rec) return;
    const run = rec.flushing.then(async () => {
      if (!rec.pending.length) return;
      // A delta of no messages (a new session's first prompt) is the empty ref: a one-shot `-p` run
      // then hashes nothing, never loads zlib and creates no blob channel.
      const stored = rec.pending.filter((p) => p.delta.length);
      const refs = stored.length ? await rec.blobs.putAll(stored.map((p) => Buffer.from(JSON.stringify(p.delta)))) : [];
      const refOf = new Map(stored.map((p, i) => [p, refs[i]!]));
      const records = rec.pending.map((p): IndexRecord => ({ k: 'prompt', seq: p.seq, time: p.time, text: p.text, epoch: p.epoch, index: p.index, delta: refOf.get(p) ?? emptyRef() }));
      await appendIndex(rec.store, rec.sessionId, records);
      rec.pending = [];
    });
    rec.flushing = run.catch(() => undefined);
    return run;
  }

  /** Before a call runs: saves every file it declares it writes, once per prompt. Throws (refusing the call) when that fails. */
  async beforeCall(call: ToolCallPart, info: ToolCallInfo): Promise<void> {
    if (!this.session || info.turn.sessionId !== this.session.info.id) return;
    const rec = await this.start().catch((error: unknown) => {
      throw failed(`the session's checkpoints could not be read`, error);
    });
    if (!rec || !rec.seq) return;
    const targets = writeTargets(info.definition, call.input, { projectRoot: this.root, cwd: this.kernel.cwd });
    if (!targets.files.length && !targets.untracked) return;
    if (targets.files.length)
      await this.flush().catch((error: unknown) => {
        throw failed('this prompt could not be checkpointed', error);
      });
    const tool = info.definition.name;
    const entry = { seq: rec.seq, files: [] as Array<{ key: string; path: string }>, untracked: targets.untracked ? [{ tool, what: targets.untracked }] : [] };
    for (const path of targets.files) {
      const key = projectKey(this.root, path);
      if (!key) {
        entry.untracked.push({ tool, what: `${path} (outside the project)` });
        continue;
      }
      entry.files.push({ key, path });
      let saving = rec.saved.get(key);
      if (!saving) {
        saving = this.save(rec, key, path);
        rec.saved.set(key, saving);
        saving.catch(() => rec.saved.delete(key));
      }
      await saving.catch((error: unknown) => {
        throw failed(`${key} could not be saved before ${info.definition.name} changed it`, error);
      });
    }
    rec.calls.set(callKey(call, info), entry);
  }

  private async save(rec: Recording, key: string, path: string): Promise<void> {
    const stat = await lstat(path).catch(() => undefined);
    let record: IndexRecord;
    if (!stat) record = { k: 'file', seq: rec.seq, path: key, before: null };
    else if (!stat.isFile() || stat.size > MAX_SAVED_BYTES) {
      const why = stat.isFile() ? `too large to save (${stat.size} bytes)` : 'not a regular file';
      record = { k: 'untracked', seq: rec.seq, tool: 'checkpoints', what: `${key} was ${why}; a rewind leaves it as it is` };
    } else record = { k: 'file', seq: rec.seq, path: key, before: await rec.blobs.put(await readFile(path)), mode: stat.mode & 0o7777 };
    await appendIndex(rec.store, rec.sessionId, [record]);
  }

  /** After a call ran: what its files hold now, and the effects no checkpoint covers. */
  async afterCall(call: ToolCallPart, info: ToolCallInfo): Promise<void> {
    const rec = await this.recording?.catch(() => undefined);
    const entry = rec?.calls.get(callKey(call, info));
    if (!rec || !entry) return;
    rec.calls.delete(callKey(call, info));
    const records: IndexRecord[] = [];
    for (const { key, path } of entry.files) records.push({ k: 'wrote', seq: entry.seq, path: key, hash: await currentHash(path) });
    for (const { tool, what } of entry.untracked) records.push({ k: 'untracked', seq: entry.seq, tool, what });
    // The prompt's own record goes first (a prompt that only ran a command has not written it yet).
    await this.flush()
      .then(() => appendIndex(rec.store, rec.sessionId, records))
      .catch((error: unknown) => this.logger.warn(`checkpoints: could not record what ${call.name} wrote: ${(error as Error)?.message ?? error}`));
  }
}

/** Call ids are unique per conversation, and each sub-agent has its own. */
const callKey = (call: ToolCallPart, info: ToolCallInfo) => `${info.turn.agentId ?? ''}\0${call.id}`;

/** The hash of a file's content now, `null` when it is absent (or not a regular file). */
export async function currentHash(path: string): Promise<string | null> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isFile()) return null;
  return contentHash(await readFile(path));
}

function failed(what: string, cause: unknown): AssistantError {
  return new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_CHECKPOINT_FAILED, `${what}: ${(cause as Error)?.message ?? cause}; the change was refused so it can still be undone`, { plugin: 'checkpoints', cause });
}
