import type { Message, Usage } from './messages.js';
import type { PermissionMode } from './permission.js';

/** One item of the model's plan (TodoWrite). */
export interface TodoItem {
  id: string;
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A permission granted by the user for the rest of a session, as a rule pattern. */
export interface SessionGrant {
  rule: string;
  time: number;
}

/** Identity and settings of a session. */
export interface SessionInfo {
  id: string;
  projectRoot: string;
  /** Stable hash of `projectRoot`, used to group sessions by project. */
  projectHash: string;
  createdAt: number;
  lastActiveAt: number;
  title?: string;
  provider?: string;
  model?: string;
  mode?: PermissionMode;
  /** The session this one was forked from. */
  forkedFrom?: string;
}

/** Everything appended to a session, one record per event. */
export type SessionEvent =
  | { type: 'session_start'; info: SessionInfo }
  | { type: 'message'; message: Message }
  | { type: 'usage'; usage: Usage; model: string }
  | { type: 'todos'; todos: TodoItem[] }
  | { type: 'grant'; grant: SessionGrant }
  | { type: 'title'; title: string }
  /** The history was replaced by a compacted one from this point. */
  | { type: 'compaction'; messages: Message[]; tokensBefore: number; tokensAfter: number }
  /** A durability point: stores flush (fsync) here. */
  | { type: 'checkpoint'; reason: 'tool_result' | 'turn_end' | 'shutdown' };

/** A session as loaded from a store. */
export interface SessionSnapshot {
  info: SessionInfo;
  messages: Message[];
  todos: TodoItem[];
  grants: SessionGrant[];
  usage: Usage;
  /** Problems found while loading (a torn last line, ...), for the user. */
  warnings: string[];
}

/** Which session to load. */
export type SessionLookup =
  | { kind: 'id'; id: string; projectRoot: string }
  | { kind: 'latest'; projectRoot: string };
