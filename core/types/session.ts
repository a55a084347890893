import type { Message, Usage } from './messages.js';
import type { PermissionMode } from './permission.js';
import type { Json } from './json-schema.js';

/** One item of the model's plan (TodoWrite). */
export interface TodoItem {
  /** Stable id the model gives the item. */
  id: string;
  /** What to do. */
  content: string;
  /** Where the item stands. */
  status: 'pending' | 'in_progress' | 'completed';
}

/** A permission granted by the user for the rest of a session, as a rule pattern. */
export interface SessionGrant {
  /** The rule pattern, e.g. `Bash(npm test:*)`. */
  rule: string;
  /** When it was granted (ms since the epoch). */
  time: number;
}

/** Identity and settings of a session. */
export interface SessionInfo {
  /** The session id (a UUID). */
  id: string;
  /** The project the session belongs to. */
  projectRoot: string;
  /** Stable hash of `projectRoot`, used to group sessions by project. */
  projectHash: string;
  /** When it started (ms since the epoch). */
  createdAt: number;
  /** When it last changed (ms since the epoch). */
  lastActiveAt: number;
  /** A short title, from the first prompt. */
  title?: string;
  /** The provider it was started with. */
  provider?: string;
  /** The model it was started with. */
  model?: string;
  /** The permission mode it was started in. */
  mode?: PermissionMode;
  /** The session this one was forked from. */
  forkedFrom?: string;
  /** The surface that last opened it (started or resumed it): where a surface that lost it says it went. */
  openedBy?: SessionOwner;
}

/** Where the history was compacted: the marker a compaction event leaves. */
export interface CompactionMarker {
  /** When the compaction happened (ms since the epoch). */
  time: number;
  /** Messages in the history just before the compaction. */
  messagesBefore: number;
  /** Input tokens of the request before the compaction. */
  tokensBefore: number;
  /** Input tokens of the request after it. */
  tokensAfter: number;
}

/** Everything appended to a session, one record per event. */
export type SessionEvent =
  | { type: 'session_start'; info: SessionInfo }
  /** The session was opened again (resumed), possibly from a moved project, by `surface` (`owner`: the same, in full). */
  | { type: 'resume'; projectRoot: string; projectHash: string; surface: string; owner?: SessionOwner }
  | { type: 'message'; message: Message }
  | { type: 'usage'; usage: Usage; model: string }
  | { type: 'todos'; todos: TodoItem[] }
  | { type: 'grant'; grant: SessionGrant }
  | { type: 'title'; title: string }
  /** The history was replaced by a compacted one from this point. */
  | { type: 'compaction'; messages: Message[]; tokensBefore: number; tokensAfter: number }
  /** The conversation was rewound to before prompt `prompt` (`/rewind`): the history is `messages` from here on. */
  | { type: 'rewind'; messages: Message[]; prompt: number }
  /** A durability point: stores flush (fsync) here. */
  | { type: 'checkpoint'; reason: 'tool_result' | 'turn_end' | 'shutdown' };

/** A session as loaded from a store. */
export interface SessionSnapshot {
  /** Identity and settings. */
  info: SessionInfo;
  /** The history, oldest first (from the latest compaction on). */
  messages: Message[];
  /** The main agent's plan. */
  todos: TodoItem[];
  /** Rules granted for the session. */
  grants: SessionGrant[];
  /** Tokens used by the whole session. */
  usage: Usage;
  /** Where the history was compacted, oldest first. */
  compactions: CompactionMarker[];
  /** Problems found while loading (a torn last line, ...), for the user. */
  warnings: string[];
}

/** Which session to load. */
export type SessionLookup =
  | { kind: 'id'; id: string; projectRoot: string }
  | { kind: 'latest'; projectRoot: string };

/** A session as listed: enough to pick one without loading its history. */
export interface SessionSummary {
  /** The session id. */
  id: string;
  /** The project it belongs to. */
  projectRoot: string;
  /** Stable hash of `projectRoot`. */
  projectHash: string;
  /** A short title, from the first prompt. */
  title?: string;
  /** When it started (ms since the epoch). */
  createdAt: number;
  /** When it last changed (ms since the epoch). */
  lastActiveAt: number;
  /** Messages in its history. */
  messageCount: number;
  /** The model it used. */
  model?: string;
  /** The provider it used. */
  provider?: string;
  /** The session it was forked from. */
  forkedFrom?: string;
  /** The surface holding the session right now, when one does. */
  inUseBy?: string;
}

/** Which sessions to list. */
export interface SessionListQuery {
  /** Only this project's sessions (the default); omit with `allProjects`. */
  projectRoot?: string;
  /** List every project's sessions. */
  allProjects?: boolean;
  /** Newest first, at most this many. */
  limit?: number;
}

/** The kinds of surface a session can be open on (a third party's front end may name its own). */
export type SurfaceKind = 'terminal' | 'headless' | 'acp' | 'serve' | 'mcp' | 'sdk' | (string & {});

/** What a store knows about the surface (terminal, process) holding a session. */
export interface SessionOwner {
  /** `user@host:/dev/pts/3`, for people. */
  surface: string;
  /** The holding process. */
  pid: number;
  /** The machine it runs on. */
  host: string;
  /** When it claimed the session (ms since the epoch). */
  since: number;
  /** Which front end holds it (`terminal`, `headless`, `acp`, `serve`...); absent in leases written before it was recorded. */
  kind?: SurfaceKind;
  /** What the front end calls itself, e.g. the editor connected over ACP or the web server's URL. */
  label?: string;
}

/** One active surface per session: released on close or by `release()`. */
export interface SessionLease {
  /** The session held. */
  readonly sessionId: string;
  /** Who holds it (this surface). */
  readonly owner: SessionOwner;
  /** Gives the session up. */
  release(): Promise<void>;
}

/** The settings a store plugin receives when the config selects it (`persistence.store`). */
export interface StoreSettings {
  /** The store name the config selected. */
  name: string;
  /** Everything under `persistence` except `store`. */
  options: Record<string, unknown>;
}

/**
 * A session store, created by the store plugin the config selects and reached through `kernel.store()`:
 * the open session appends its events to it; the CLI loads, lists, deletes and prunes through it. The full contract is in
 * docs/sessions.md ("Writing a store"); `describeSessionStore` in the test kit checks it. Side channels (`audit`,
 * `metrics`, `recording`) are JSON records kept beside a session and removed with it.
 */
export interface SessionStore {
  /** The name `persistence.store` selects it by. */
  readonly name: string;
  /**
   * Appends one event; the event is durable once a `checkpoint` event's append resolves. Fenced by
   * the lease: claims an unheld session first, fails with `ASSISTANT_SESSION_IN_USE` (held by a live
   * owner) or `ASSISTANT_SESSION_TAKEN_OVER` (this store's lease was taken).
   */
  append(event: SessionEvent, info: SessionInfo): Promise<void>;
  /** Loads a session (an `id` lookup always carries a full id: prefixes go through `resolve`); `undefined` when this store does not have it. */
  load(lookup: SessionLookup): Promise<SessionSnapshot | undefined>;
  /** Full ids whose id starts with `prefix`, this project's first, then others. */
  resolve(prefix: string, projectRoot: string): Promise<string[]>;
  /** Summaries of the sessions the query selects, newest first. */
  list(query: SessionListQuery): Promise<SessionSummary[]>;
  /** Removes a session and its side channels; false when it did not exist. One held by another live owner: `ASSISTANT_SESSION_IN_USE`. */
  delete(id: string): Promise<boolean>;
  /** Deletes the sessions last active before `before` (ms since the epoch); returns what it deleted. */
  prune(query: SessionListQuery & { before: number }): Promise<SessionSummary[]>;
  /**
   * Claims the session for this surface, before its first append (the kernel does for new sessions)
   * or before loading it to resume; re-entrant. A live holder: `ASSISTANT_SESSION_IN_USE` unless
   * `takeOver`; a dead one (same host, process gone, or lease expired) is replaced.
   */
  acquire(sessionId: string, options?: { takeOver?: boolean }): Promise<SessionLease>;
  /** Appends records to a side channel of a session; durable when the promise resolves (`durable: false`: written, never flushed, not even by `close`, as metrics are). */
  appendRecords(sessionId: string, channel: string, records: Json[], options?: { durable?: boolean }): Promise<void>;
  /** Reads a side channel of a session (empty when it has none). */
  readRecords(sessionId: string, channel: string): Promise<Json[]>;
  /**
   * Who holds the session's lease right now (`mine`: this store's own lease), or undefined when no
   * live surface holds it. Optional: a store without it cannot tell a surface where its session went.
   */
  holder?(sessionId: string): Promise<{ owner: SessionOwner; mine: boolean } | undefined>;
  /** Flushes (all but `durable: false` side-channel records), releases leases and closes files or connections. */
  close(): Promise<void>;
}
