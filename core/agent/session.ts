import { randomUUID } from 'node:crypto';
import type { Hooks } from '../kernel/hooks.js';
import { emptyUsage, type Message, type Usage } from '../types/messages.js';
import type { PermissionMode } from '../types/permission.js';
import type { CompactionMarker, SessionEvent, SessionGrant, SessionInfo, SessionSnapshot, TodoItem } from '../types/session.js';
import { applySessionEvent, danglingToolResults, resumeEvent, titleFromPrompt } from './session-events.js';
import { projectHash } from '../util/paths.js';
import { currentOwner } from '../util/surface.js';

/** The live state of the open session. Change it only through `record`, so every change is persisted. */
export interface SessionState {
  /** Who and what the session is: id, project, title, provider, model. */
  readonly info: SessionInfo;
  /** The conversation history, oldest first. */
  readonly messages: readonly Message[];
  /** The main agent's plan (TodoWrite). */
  readonly todos: readonly TodoItem[];
  /** Permission rules granted "for this session". */
  readonly grants: readonly SessionGrant[];
  /** Tokens used by the whole session. */
  readonly usage: Readonly<Usage>;
  /** Compactions that replaced the history, oldest first. */
  readonly compactions: readonly CompactionMarker[];
  /** The permission mode in force (the UI may switch it). */
  mode: PermissionMode;
  /** Applies an event to the state and sends it to every store through the `persist` hook. */
  record(event: SessionEvent): Promise<void>;
}

/** How to open a session. */
export interface OpenSessionOptions {
  /** The project the session belongs to. */
  projectRoot: string;
  /** The permission mode it starts in. */
  mode: PermissionMode;
  /** The provider name recorded with the session. */
  provider?: string;
  /** The model recorded with the session. */
  model?: string;
  /** Resume from a stored snapshot (same id) ... */
  resume?: SessionSnapshot;
  /** ... or start a new session from its history (a fork). */
  fork?: SessionSnapshot;
  /** A new session replacing the previous one (`/clear`): `sessionOpen` says `clear` instead of `startup`. */
  cleared?: boolean;
}

function newInfo(options: OpenSessionOptions, now: number): SessionInfo {
  return {
    id: randomUUID(),
    projectRoot: options.projectRoot,
    projectHash: projectHash(options.projectRoot),
    createdAt: now,
    lastActiveAt: now,
    provider: options.provider,
    model: options.model,
    mode: options.mode,
    openedBy: currentOwner(now),
    ...(options.fork ? { forkedFrom: options.fork.info.id, title: options.fork.info.title } : {}),
  };
}

function firstPromptText(message: Message): string | undefined {
  if (message.role !== 'user' || (message.meta?.origin && message.meta.origin !== 'user')) return undefined;
  const part = message.content.find((p) => p.type === 'text');
  return part?.type === 'text' && part.text.trim() ? part.text : undefined;
}

/**
 * Opens a session (new, resumed or forked) and records its start. A resumed session records where
 * and by whom it was reopened; tool calls a crash left without results get results saying so, and a
 * session reopened in a moved project gets a note that files must be re-read, not trusted from history.
 * Then `sessionOpen` fires, saying how the session came to be open.
 */
export async function openSession(hooks: Hooks, options: OpenSessionOptions): Promise<SessionState> {
  const now = Date.now();
  const base = options.resume ?? options.fork;
  const state: SessionSnapshot = {
    info: options.resume ? { ...options.resume.info } : newInfo(options, now),
    messages: base ? [...base.messages] : [],
    todos: base ? base.todos.map((t) => ({ ...t })) : [],
    grants: base ? [...base.grants] : [],
    usage: base ? { ...base.usage } : emptyUsage(),
    compactions: options.resume ? [...(options.resume.compactions ?? [])] : [],
    warnings: [],
  };
  const record = async (event: SessionEvent) => {
    const time = Date.now();
    applySessionEvent(state, event, time);
    await hooks.persist.promise(event, state.info);
    const title = event.type === 'message' && !state.info.title ? firstPromptText(event.message) : undefined;
    if (title) await record({ type: 'title', title: titleFromPrompt(title) });
  };
  const session: SessionState = {
    get info() {
      return state.info;
    },
    get messages() {
      return state.messages;
    },
    get todos() {
      return state.todos;
    },
    get grants() {
      return state.grants;
    },
    get usage() {
      return state.usage;
    },
    get compactions() {
      return state.compactions;
    },
    mode: options.mode,
    record,
  };

  if (options.resume) {
    const movedFrom = state.info.projectRoot !== options.projectRoot ? state.info.projectRoot : undefined;
    await record(resumeEvent(options.projectRoot, currentOwner(now)));
    const repaired = danglingToolResults(state.messages);
    if (repaired) await record({ type: 'message', message: repaired });
    if (movedFrom)
      await record({
        type: 'message',
        message: {
          role: 'user',
          content: [{ type: 'text', text: `Note: this session was resumed in ${options.projectRoot} (it started in ${movedFrom}). Files may differ from what the history shows: re-read a file before editing it.` }],
          meta: { time: now, origin: 'system-note' },
        },
      });
    await hooks.sessionOpen.promise(session, { source: 'resume' });
    return session;
  }
  await hooks.persist.promise({ type: 'session_start', info: state.info }, state.info);
  // A fork starts with the old history: write it into the new session so it stands alone.
  for (const message of state.messages) await hooks.persist.promise({ type: 'message', message }, state.info);
  if (options.fork) {
    for (const grant of state.grants) await hooks.persist.promise({ type: 'grant', grant }, state.info);
    if (state.todos.length) await hooks.persist.promise({ type: 'todos', todos: state.todos.map((t) => ({ ...t })) }, state.info);
    if (state.usage.inputTokens + state.usage.outputTokens) await hooks.persist.promise({ type: 'usage', usage: { ...state.usage }, model: state.info.model ?? 'unknown' }, state.info);
    await hooks.persist.promise({ type: 'checkpoint', reason: 'turn_end' }, state.info);
  }
  await hooks.sessionOpen.promise(session, { source: options.fork ? 'fork' : options.cleared ? 'clear' : 'startup' });
  return session;
}
