import { addUsage, emptyUsage, type Message, type ToolMessage } from '../../types/messages.js';
import type { SessionEvent, SessionInfo, SessionOwner, SessionSnapshot } from '../../types/session.js';
import { projectHash } from '../../util/paths.js';

/** Applies one event to a snapshot in place. The one reducer: live sessions and stores share it. */
export function applySessionEvent(state: SessionSnapshot, event: SessionEvent, time = Date.now()): void {
  switch (event.type) {
    case 'session_start':
      state.info = { ...event.info };
      break;
    case 'resume':
      state.info.projectRoot = event.projectRoot;
      state.info.projectHash = event.projectHash;
      if (event.owner) state.info.openedBy = { ...event.owner };
      break;
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
      state.compactions.push({ time, messagesBefore: state.messages.length, tokensBefore: event.tokensBefore, tokensAfter: event.tokensAfter });
      state.messages = [...event.messages];
      break;
    case 'rewind':
      state.messages = [...event.messages];
      break;
    case 'checkpoint':
      break;
  }
  if (time > state.info.lastActiveAt) state.info.lastActiveAt = time;
}

/** An empty snapshot for `info`. */
export function emptySnapshot(info: SessionInfo): SessionSnapshot {
  return { info: { ...info }, messages: [], todos: [], grants: [], usage: emptyUsage(), compactions: [], warnings: [] };
}

/** Builds a snapshot from a session's records (the first must be `session_start`); `undefined` when there is none. */
export function snapshotFromEvents(records: Iterable<{ event: SessionEvent; time: number }>): SessionSnapshot | undefined {
  let state: SessionSnapshot | undefined;
  for (const { event, time } of records) {
    if (!state) {
      if (event.type !== 'session_start') return undefined;
      state = emptySnapshot(event.info);
    }
    applySessionEvent(state, event, time);
  }
  return state;
}

/** A short title from a first prompt: one line, at most 80 characters. */
export function titleFromPrompt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Tool calls left without results (the process died between the call and its result): results
 * saying so, so the history is valid for every provider again. Empty when nothing dangles.
 */
export function danglingToolResults(messages: readonly Message[]): ToolMessage | undefined {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'assistant') return undefined;
  const calls = last.content.filter((p) => p.type === 'tool_call');
  if (!calls.length) return undefined;
  return {
    role: 'tool',
    content: calls.map((call) => ({
      type: 'tool_result',
      toolCallId: call.id,
      isError: true,
      content: [{ type: 'text', text: 'The session stopped before this tool call finished; its outcome is unknown. Check the files it touched before retrying.' }],
    })),
    meta: { time: Date.now(), origin: 'system-note' },
  };
}

/** The `resume` event for reopening a session at `projectRoot`, by `owner`. */
export function resumeEvent(projectRoot: string, owner: SessionOwner): SessionEvent {
  return { type: 'resume', projectRoot, projectHash: projectHash(projectRoot), surface: owner.surface, owner };
}
