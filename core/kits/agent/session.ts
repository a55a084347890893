import type { Kernel } from '../../kernel/kernel-types.js';
import { emptyUsage, type Message } from '../../types/messages.js';
import type { PermissionMode } from '../../types/permission.js';
import type { SessionEvent, SessionInfo, SessionSnapshot } from '../../types/session.js';
import { applySessionEvent, danglingToolResults, resumeEvent, titleFromPrompt } from '../store/index.js';
import { projectHash } from '../../util/paths.js';
import { secureRandomUUID } from '../fs/index.js';
import { currentOwner } from '../../util/surface.js';
import { selectedStoreName } from '../../kernel/session-store.js';
import type { SessionState } from '../../types/agent.js';

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
    id: secureRandomUUID(),
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
 * Opens a session (new, resumed or forked) and records its start. Every event goes to the store
 * `persistence.store` selects (none: the session lives in memory), then to `sessionEvent` observers. A resumed session records where
 * and by whom it was reopened; tool calls a crash left without results get results saying so, and a
 * session reopened in a moved project gets a note that files must be re-read, not trusted from history.
 * Then `sessionOpen` fires, saying how the session came to be open.
 */
export async function openSession(kernel: Kernel, options: OpenSessionOptions): Promise<SessionState> {
  const { hooks } = kernel;
  const store = selectedStoreName(kernel.resolvedConfig) ? kernel.store() : undefined;
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
  const persist = async (event: SessionEvent) => {
    // A new session (fresh, forked, cleared) is claimed before its first event: no other surface can resume and write it meanwhile.
    if (event.type === 'session_start') await store?.acquire(state.info.id);
    await store?.append(event, state.info);
    await hooks.sessionEvent.promise(event, state.info);
  };
  const record = async (event: SessionEvent) => {
    applySessionEvent(state, event, Date.now());
    await persist(event);
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
  await persist({ type: 'session_start', info: state.info });
  // A fork starts with the old history: write it into the new session so it stands alone.
  for (const message of state.messages) await persist({ type: 'message', message });
  if (options.fork) {
    for (const grant of state.grants) await persist({ type: 'grant', grant });
    if (state.todos.length) await persist({ type: 'todos', todos: state.todos.map((t) => ({ ...t })) });
    if (state.usage.inputTokens + state.usage.outputTokens) await persist({ type: 'usage', usage: { ...state.usage }, model: state.info.model ?? 'unknown' });
    await persist({ type: 'checkpoint', reason: 'turn_end' });
  }
  await hooks.sessionOpen.promise(session, { source: options.fork ? 'fork' : options.cleared ? 'clear' : 'startup' });
  return session;
}
