/** The one internal message format. Providers convert to and from their wire formats. */
import type { Json } from './json-schema.js';

/** Plain text. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** An image, base64-encoded. */
export interface ImagePart {
  type: 'image';
  mediaType: string;
  data: string;
}

/** The model's visible reasoning; `signature` must be sent back unchanged where the provider asks for it. */
export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
  /** Set for reasoning the provider redacted: `data` is opaque and only ever echoed back. */
  redacted?: boolean;
  data?: string;
}

/** A tool call the model made; `input` is the parsed JSON arguments. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Set when the provider delivered input that is not complete JSON: the call must not run. */
  inputError?: string;
}

/** The result of one tool call, matched to it by `toolCallId`. */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  content: Array<TextPart | ImagePart>;
  isError?: boolean;
  /** Structured facts for observers (UI, audit, stores): line counts, exit codes, diffs. Providers never send it. */
  metadata?: { [key: string]: Json };
}

/** Message metadata that never reaches the wire. */
export interface MessageMeta {
  /** Milliseconds since the epoch when the message was created. */
  time?: number;
  /** Who added the message when it was not the user typing: a steering note, a reminder, a summary. */
  origin?: 'user' | 'steering' | 'reminder' | 'summary' | 'system-note';
  /** Free-form tags plugins use to recognise their own messages (e.g. the todo reminder). */
  tag?: string;
}

export interface UserMessage {
  role: 'user';
  content: Array<TextPart | ImagePart>;
  meta?: MessageMeta;
}

export interface AssistantMessage {
  role: 'assistant';
  content: Array<TextPart | ThinkingPart | ToolCallPart>;
  meta?: MessageMeta & { model?: string; stopReason?: StopReason };
}

/** Tool results for the calls of the assistant message before it, in call order. */
export interface ToolMessage {
  role: 'tool';
  content: ToolResultPart[];
  meta?: MessageMeta;
}

export type Message = UserMessage | AssistantMessage | ToolMessage;

/** Why the model stopped producing output. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'aborted' | 'error';

/** One section of the system prompt; `id` keeps sections distinguishable and their order stable. */
export interface SystemSection {
  id: string;
  text: string;
  /** Which part of the context budget the section counts toward (`/context`); default `system`. */
  part?: 'system' | 'memory' | 'projectMap';
}

/** Token usage reported by a provider for one request. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A zeroed usage record. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Adds `b` into `a` and returns `a`. */
export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  a.inputTokens += b.inputTokens ?? 0;
  a.outputTokens += b.outputTokens ?? 0;
  a.cacheReadTokens += b.cacheReadTokens ?? 0;
  a.cacheWriteTokens += b.cacheWriteTokens ?? 0;
  return a;
}

/** Concatenated text of the text parts of a message. */
export function messageText(message: Message): string {
  let out = '';
  for (const part of message.content) if (part.type === 'text') out += part.text;
  return out;
}
