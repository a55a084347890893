import type { SessionEvent } from '../../core/index.js';

// A session file is the user's data and may be damaged in any way: a crash, a full disk, an editor,
// another program. Each record is checked against the shape the reducer relies on, so one bad
// record is skipped (and named) instead of breaking every later resume.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

const PART_CHECKS: Record<string, (p: Record<string, unknown>) => boolean> = {
  text: (p) => isString(p.text),
  image: (p) => isString(p.mediaType) && isString(p.data),
  thinking: (p) => isString(p.text) || p.redacted === true,
  tool_call: (p) => isString(p.id) && isString(p.name) && isObject(p.input),
  tool_result: (p) => isString(p.toolCallId) && Array.isArray(p.content) && p.content.every((c) => isObject(c) && (c.type === 'text' || c.type === 'image') && PART_CHECKS[c.type as string]!(c)),
};

/** The part types each role may hold. */
const ROLE_PARTS: Record<string, string[]> = { user: ['text', 'image'], assistant: ['text', 'thinking', 'tool_call'], tool: ['tool_result'] };

function messageProblem(message: unknown): string | undefined {
  if (!isObject(message)) return 'the message is not an object';
  const allowed = ROLE_PARTS[message.role as string];
  if (!allowed) return `unknown message role ${JSON.stringify(message.role)}`;
  if (!Array.isArray(message.content)) return 'the message content is not a list';
  for (const part of message.content) {
    if (!isObject(part) || !allowed.includes(part.type as string)) return `a ${message.role} message holds a part of type ${JSON.stringify(isObject(part) ? part.type : part)}`;
    if (!PART_CHECKS[part.type as string]!(part)) return `a ${part.type} part lacks its fields`;
  }
  return undefined;
}

function historyProblem(messages: unknown, what: string): string | undefined {
  if (!Array.isArray(messages)) return `${what} is not a list`;
  for (const message of messages) {
    const problem = messageProblem(message);
    if (problem) return `${what}: ${problem}`;
  }
  return undefined;
}

const EVENT_CHECKS: Record<string, (e: Record<string, unknown>) => string | undefined> = {
  session_start: (e) =>
    isObject(e.info) && isString(e.info.id) && isString(e.info.projectRoot) && isNumber(e.info.createdAt) ? undefined : 'the session start lacks its id, project or time',
  resume: (e) => (isString(e.projectRoot) && isString(e.projectHash) ? undefined : 'the resume lacks its project'),
  message: (e) => messageProblem(e.message),
  usage: (e) =>
    isObject(e.usage) && ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'].every((k) => e.usage && isNumber((e.usage as Record<string, unknown>)[k]))
      ? undefined
      : 'the usage record lacks its token counts',
  todos: (e) => (Array.isArray(e.todos) && e.todos.every((t) => isObject(t) && isString(t.id) && isString(t.content) && isString(t.status)) ? undefined : 'the todo list is malformed'),
  grant: (e) => (isObject(e.grant) && isString(e.grant.rule) ? undefined : 'the grant lacks its rule'),
  title: (e) => (isString(e.title) ? undefined : 'the title is not text'),
  compaction: (e) => historyProblem(e.messages, 'the compacted history'),
  rewind: (e) => (isNumber(e.prompt) ? historyProblem(e.messages, 'the rewound history') : 'the rewind lacks its prompt number'),
  checkpoint: () => undefined,
};

/** Why a stored record `{ e: event, t: time }` cannot be replayed, or undefined when it can. */
export function recordProblem(record: unknown): string | undefined {
  if (!isObject(record) || !isObject(record.e)) return 'not a session event';
  const type = record.e.type;
  if (!isString(type)) return 'the event has no type';
  const check = EVENT_CHECKS[type];
  if (!check) return `unknown event type ${JSON.stringify(type.slice(0, 40))}`;
  return check(record.e);
}

/** The event and time of a record that passed `recordProblem`. */
export function recordEvent(record: unknown): { event: SessionEvent; time: number } {
  const { e, t } = record as { e: SessionEvent; t?: unknown };
  return { event: e, time: isNumber(t) ? t : 0 };
}
