import { lstat, readFile } from 'node:fs/promises';
import { AssistantError, realPath, type Kernel, type Logger, type Message, type SessionStore, type ToolCallInfo, type ToolCallPart } from '../../core/index.js';
import type { SessionState } from '../../core/kits/agent/index.js';
import { BlobWriter, contentHash } from './blobs.js';
import { CHECKPOINT_ERRORS } from './errors.js';
import { projectKey } from './paths.js';
import { appendIndex, readTimeline, type IndexRecord } from './records.js';
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
  /** Why the running prompt cannot be checkpointed: its writes are refused. */
  failed?: Error;
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
      return { sessionId: session.info.id, store, blobs: new BlobWriter(store, session.info.id, timeline.chunks), seq: 0, nextSeq: last + 1, saved: new Map(), calls: new Map() };
    })();
    return this.recording;
  }

  /** A message joined the history: a user's prompt starts a checkpoint. */
  async message(message: Message, sessionId: string): Promise<void> {
    const session = this.session;
    if (!session || session.info.id !== sessionId || !isPrompt(message)) return;
    let rec: Recording | undefined;
    try {
      rec = await this.start();
      if (!rec) return;
      rec.seq = rec.nextSeq++;
      rec.saved = new Map();
      rec.failed = undefined;
      const at = session.messages.lastIndexOf(message);
      const history = at >= 0 ? session.messages.slice(0, at) : [...session.messages];
      const ref = await rec.blobs.put(Buffer.from(JSON.stringify(history)));
      const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join(' ').trim();
      await appendIndex(rec.store, rec.sessionId, [{ k: 'prompt', seq: rec.seq, time: Date.now(), text: text.slice(0, 500), history: ref }]);
    } catch (error) {
      if (rec) rec.failed = error as Error;
      this.logger.warn(`checkpoints: this prompt could not be checkpointed, so file changes are refused until the next prompt: ${(error as Error)?.message ?? error}`);
    }
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
    if (rec.failed && targets.files.length) throw failed('this prompt could not be checkpointed', rec.failed);
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
    rec.calls.set(call.id, entry);
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
  async afterCall(call: ToolCallPart): Promise<void> {
    const rec = await this.recording?.catch(() => undefined);
    const entry = rec?.calls.get(call.id);
    if (!rec || !entry) return;
    rec.calls.delete(call.id);
    const records: IndexRecord[] = [];
    for (const { key, path } of entry.files) records.push({ k: 'wrote', seq: entry.seq, path: key, hash: await currentHash(path) });
    for (const { tool, what } of entry.untracked) records.push({ k: 'untracked', seq: entry.seq, tool, what });
    await appendIndex(rec.store, rec.sessionId, records).catch((error: unknown) => this.logger.warn(`checkpoints: could not record what ${call.name} wrote: ${(error as Error)?.message ?? error}`));
  }
}

/** The hash of a file's content now, `null` when it is absent (or not a regular file). */
export async function currentHash(path: string): Promise<string | null> {
  const stat = await lstat(path).catch(() => undefined);
  if (!stat?.isFile()) return null;
  return contentHash(await readFile(path));
}

function failed(what: string, cause: unknown): AssistantError {
  return new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_CHECKPOINT_FAILED, `${what}: ${(cause as Error)?.message ?? cause}; the change was refused so it can still be undone`, { plugin: 'checkpoints', cause });
}
