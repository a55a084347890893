import { randomUUID } from 'node:crypto';
import type { Hooks } from './hooks.js';
import { addUsage, emptyUsage, type Message, type Usage } from './types/messages.js';
import type { PermissionMode } from './types/permission.js';
import type { SessionEvent, SessionGrant, SessionInfo, SessionSnapshot, TodoItem } from './types/session.js';
import { projectHash } from './util/paths.js';

/** The live state of the open session. Change it only through `record`, so every change is persisted. */
export interface SessionState {
  readonly info: SessionInfo;
  readonly messages: readonly Message[];
  readonly todos: readonly TodoItem[];
  readonly grants: readonly SessionGrant[];
  readonly usage: Readonly<Usage>;
  /** The permission mode in force (the UI may switch it). */
  mode: PermissionMode;
  /** Applies an event to the state and sends it to every store through the `persist` hook. */
  record(event: SessionEvent): Promise<void>;
}

/** How to open a session. */
export interface OpenSessionOptions {
  projectRoot: string;
  mode: PermissionMode;
  provider?: string;
  model?: string;
  /** Resume from a stored snapshot (same id) ... */
  resume?: SessionSnapshot;
  /** ... or start a new session from its history (a fork). */
  fork?: SessionSnapshot;
}

function applyEvent(state: { info: SessionInfo; messages: Message[]; todos: TodoItem[]; grants: SessionGrant[]; usage: Usage }, event: SessionEvent): void {
  switch (event.type) {
    case 'message':
      state.messages.push(event.message);
      break;
    case 'usage':
      addUsage(state.usage, event.usage);
      break;
    case 'todos':
      state.todos = event.todos.map((t) => ({ ...t }));
      break;
    case 'grant':
      state.grants.push(event.grant);
      break;
    case 'title':
      state.info.title = event.title;
      break;
    case 'compaction':
      state.messages = [...event.messages];
      break;
    case 'session_start':
    case 'checkpoint':
      break;
  }
}

/** Opens a session (new, resumed or forked) and records its start. */
export async function openSession(hooks: Hooks, options: OpenSessionOptions): Promise<SessionState> {
  const now = Date.now();
  const base = options.resume ?? options.fork;
  const info: SessionInfo = options.resume
    ? { ...options.resume.info, lastActiveAt: now, projectRoot: options.projectRoot, projectHash: projectHash(options.projectRoot) }
    : {
        id: randomUUID(),
        projectRoot: options.projectRoot,
        projectHash: projectHash(options.projectRoot),
        createdAt: now,
        lastActiveAt: now,
        provider: options.provider,
        model: options.model,
        mode: options.mode,
        ...(options.fork ? { forkedFrom: options.fork.info.id, title: options.fork.info.title } : {}),
      };
  const state = {
    info,
    messages: base ? [...base.messages] : [],
    todos: base ? base.todos.map((t) => ({ ...t })) : [],
    grants: base ? [...base.grants] : [],
    usage: base ? { ...base.usage } : emptyUsage(),
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
    mode: options.mode,
    async record(event) {
      applyEvent(state, event);
      state.info.lastActiveAt = Date.now();
      await hooks.persist.promise(event, state.info);
    },
  };
  if (!options.resume) {
    await hooks.persist.promise({ type: 'session_start', info }, info);
    // A fork starts with the old history: write it into the new session so it stands alone.
    for (const message of state.messages) await hooks.persist.promise({ type: 'message', message }, info);
  }
  return session;
}
