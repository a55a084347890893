import type { Message, SystemSection } from '../types/messages.js';
import type { ToolSpec } from '../types/provider.js';
import type { ContextPart } from '../types/context.js';
// One text estimate for the whole kernel, by character class; the ledger calibrates it against reported usage.
import { estimateTextTokens, IMAGE_TOKENS } from './text-tokens.js';

/** Framing per message, content block and tool definition (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
const BLOCK_OVERHEAD = 3;
const TOOL_OVERHEAD = 8;

/** The `meta.tag` of the plan reminder a todo plugin appends; counted as the `todo` part. */
export const TODO_REMINDER_TAG = 'todo-reminder';


// Messages are immutable once in the history, so their estimate is computed once.
const messageCache = new WeakMap<Message, number>();

/** Estimated input tokens of one message. */
export function estimateMessageTokens(message: Message): number {
  const cached = messageCache.get(message);
  if (cached !== undefined) return cached;
  let tokens = MESSAGE_OVERHEAD;
  for (const part of message.content) {
    tokens += BLOCK_OVERHEAD;
    switch (part.type) {
      case 'text':
        tokens += estimateTextTokens(part.text);
        break;
      case 'image':
        tokens += IMAGE_TOKENS;
        break;
      case 'thinking':
        tokens += estimateTextTokens(part.redacted ? (part.data ?? '') : part.text) + (part.signature ? estimateTextTokens(part.signature) : 0);
        break;
      case 'tool_call':
        tokens += estimateTextTokens(part.name) + estimateTextTokens(JSON.stringify(part.input));
        break;
      case 'tool_result':
        for (const inner of part.content) tokens += inner.type === 'text' ? estimateTextTokens(inner.text) : IMAGE_TOKENS;
        break;
    }
  }
  messageCache.set(message, tokens);
  return tokens;
}

/** Estimated tokens of a list of messages. */
export function estimateMessagesTokens(messages: readonly Message[], from = 0, to = messages.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += estimateMessageTokens(messages[i]!);
  return sum;
}

// A tool's estimate, by its schema object: requests rebuild the specs each turn, from the same
// definitions, and a turn measures them several times (~40 tools, a few KB each).
const toolCache = new WeakMap<object, { name: string; description: string; tokens: number }>();

/** Estimated tokens of one tool definition as the model sees it. */
export function estimateToolTokens(tool: ToolSpec): number {
  const cached = toolCache.get(tool.inputSchema);
  if (cached?.name === tool.name && cached.description === tool.description) return cached.tokens;
  const tokens = TOOL_OVERHEAD + estimateTextTokens(tool.name) + estimateTextTokens(tool.description) + estimateTextTokens(JSON.stringify(tool.inputSchema));
  toolCache.set(tool.inputSchema, { name: tool.name, description: tool.description, tokens });
  return tokens;
}

/** The budget part a message counts toward. */
export function messagePart(message: Message): ContextPart {
  if (message.meta?.origin === 'summary') return 'summary';
  if (message.meta?.tag === TODO_REMINDER_TAG) return 'todo';
  return 'history';
}

/** An empty breakdown. */
export function emptyParts(): Record<ContextPart, number> {
  return { system: 0, tools: 0, memory: 0, projectMap: 0, summary: 0, history: 0, todo: 0 };
}

/** Estimated tokens of each part of a request. */
export function estimateParts(request: { system: readonly SystemSection[]; tools: readonly ToolSpec[]; messages: readonly Message[] }): Record<ContextPart, number> {
  const parts = emptyParts();
  for (const section of request.system) parts[section.part ?? 'system'] += estimateTextTokens(section.text) + BLOCK_OVERHEAD;
  for (const tool of request.tools) parts.tools += estimateToolTokens(tool);
  for (const message of request.messages) parts[messagePart(message)] += estimateMessageTokens(message);
  return parts;
}

/** Sum of a breakdown. */
export function sumParts(parts: Record<ContextPart, number>): number {
  let sum = 0;
  for (const value of Object.values(parts)) sum += value;
  return sum;
}
