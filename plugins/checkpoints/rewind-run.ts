import { AssistantError, SessionError, formatError, isAssistantError, realPath, type Kernel, type Message, type SessionEvent, type SlashCommandContext } from '../../core/index.js';
import { resolveSessionId, type AgentRunner } from '../../core/kits/agent/index.js';
import { CHECKPOINT_ERRORS } from './errors.js';
import { formatCheckpoints, formatOutcome } from './format.js';
import { readTimeline, type PromptEntry } from './records.js';
import { rewind, promptNumbered, RewindConflict, type RewindRequest } from './rewind.js';

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : text + '\n');

/** The prompt number as typed: a positive integer, else a coded error. */
function promptNumber(text: string): number {
  if (!/^\d+$/.test(text.trim()))
    throw new AssistantError(CHECKPOINT_ERRORS.ASSISTANT_REWIND_NO_PROMPT, `"${text}" is not a prompt number (1, 2, …; the list shows them)`, { plugin: 'checkpoints' });
  return Number(text);
}

/** Which parts to restore, from `code`, `conversation` or `both` (the default). */
function parts(which: string | undefined): Pick<RewindRequest, 'code' | 'conversation'> {
  if (!which || which === 'both') return { code: true, conversation: true };
  if (which === 'code') return { code: true, conversation: false };
  if (which === 'conversation') return { code: false, conversation: true };
  throw new AssistantError('ASSISTANT_USAGE', `restore "code", "conversation" or "both" (got "${which}")`);
}

/**
 * The rewound prompt as the user typed it: its message's first text part (attachments and notes
 * follow it) when the conversation still holds it where the checkpoint says, else the recorded text.
 */
function promptAsTyped(messages: readonly Message[], target: PromptEntry): string {
  const message = messages[target.index];
  const first = message?.role === 'user' ? message.content.find((p) => p.type === 'text') : undefined;
  return first?.type === 'text' && target.text.startsWith(first.text.trim().slice(0, 500)) ? first.text : target.text;
}

/** The body of `/rewind [n] [code|conversation|both] [force]` on the open session (commands.ts declares it). */
export async function runRewindSlash(kernel: Kernel, flush: () => Promise<void>, args: string, context: SlashCommandContext): Promise<string> {
  const runner = context.ui?.runner as AgentRunner | undefined;
  const session = runner?.session ?? kernel.session;
  if (!session) return 'No session is open.';
  if (runner?.busy) return 'The agent is working: press esc to stop it, then rewind.';
  try {
    const store = kernel.store();
    await flush();
    const words = args.trim().split(/\s+/).filter(Boolean);
    if (!words.length) return formatCheckpoints(await readTimeline(store, session.info.id), '/rewind');
    const force = words.includes('force');
    const rest = words.filter((w) => w !== 'force');
    const n = promptNumber(rest[0]!);
    const request = { prompt: n, ...parts(rest[1]), force };
    const before = session.messages;
    const outcome = await rewind({ store, sessionId: session.info.id, projectRoot: kernel.projectRoot, record: (event) => session.record(event) }, request);
    // The terminal redraws the rewound conversation and puts the prompt back in the input, as typed.
    const showRewound = context.ui?.showRewound as ((prompt: string) => void) | undefined;
    if (request.conversation) showRewound?.(promptAsTyped(before, outcome.target));
    return formatOutcome(outcome, n, request.code);
  } catch (error) {
    if (error instanceof RewindConflict)
      return [
        'These files changed after the agent last wrote them (by you, or a command); the rewind would overwrite them:',
        ...error.files.map((f) => `  ${f}`),
        `Nothing was restored. To overwrite them: /rewind ${args.trim()} force`,
      ].join('\n');
    if (isAssistantError(error)) return formatError(error);
    throw error;
  }
}

/** The body of `assistant sessions rewind <id> [n] [--code|--conversation|--both] [--force]` (commands.ts declares it). */
export async function runRewindCli(kernel: Kernel, [prefix, n]: string[], opts: Record<string, unknown>): Promise<void> {
  const store = kernel.store();
  const id = await resolveSessionId(kernel, prefix!, false);
  if (n === undefined) return out(formatCheckpoints(await readTimeline(store, id), `assistant sessions rewind ${id.slice(0, 8)}`));
  const chosen = (['code', 'conversation', 'both'] as const).filter((k) => opts[k] === true);
  if (chosen.length > 1) throw new AssistantError('ASSISTANT_USAGE', `choose one of --code, --conversation, --both (got ${chosen.map((c) => `--${c}`).join(' ')})`);
  const request = { prompt: promptNumber(n), ...parts(chosen[0]), force: opts.force === true };
  // Checked before the lease is taken: a bad number is refused whoever holds the session.
  promptNumbered(await readTimeline(store, id), request.prompt);
  const lease = await store.acquire(id);
  try {
    const snapshot = await kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
    if (!snapshot) throw new SessionError('ASSISTANT_SESSION_NOT_FOUND', `session ${id} could not be loaded`);
    if (realPath(snapshot.info.projectRoot) !== realPath(kernel.projectRoot))
      throw new AssistantError(
        CHECKPOINT_ERRORS.ASSISTANT_REWIND_UNSAFE,
        `session ${id.slice(0, 8)} belongs to ${snapshot.info.projectRoot}; run the rewind from there (nothing was restored)`,
        { plugin: 'checkpoints' },
      );
    const info = { ...snapshot.info };
    const record = async (event: SessionEvent) => {
      info.lastActiveAt = Date.now();
      await store.append(event, info);
    };
    const outcome = await rewind({ store, sessionId: id, projectRoot: kernel.projectRoot, record }, request);
    out(formatOutcome(outcome, request.prompt, request.code));
  } finally {
    await lease.release();
  }
}
