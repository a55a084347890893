/** The one internal message format. Providers convert to and from their wire formats. */
import type { Json } from './json-schema.js';

/** Plain text. */
export interface TextPart {
  /** Discriminator. */
  type: 'text';
  /** The text. */
  text: string;
}

/** An image, base64-encoded. */
export interface ImagePart {
  /** Discriminator. */
  type: 'image';
  /** MIME type, e.g. `image/png`. */
  mediaType: string;
  /** The image, base64-encoded. */
  data: string;
}

/** The model's visible reasoning; `signature` must be sent back unchanged where the provider asks for it. */
export interface ThinkingPart {
  /** Discriminator. */
  type: 'thinking';
  /** The reasoning text (empty when redacted). */
  text: string;
  /** The provider's signature over the reasoning, sent back unchanged. */
  signature?: string;
  /** Set for reasoning the provider redacted: `data` is opaque and only ever echoed back. */
  redacted?: boolean;
  /** The redacted reasoning's opaque data. */
  data?: string;
}

/** A tool call the model made; `input` is the parsed JSON arguments. */
export interface ToolCallPart {
  /** Discriminator. */
  type: 'tool_call';
  /** The call id the provider gave; the result carries it back. */
  id: string;
  /** The tool called. */
  name: string;
  /** The parsed JSON arguments. */
  input: Record<string, unknown>;
  /** Set when the provider delivered input that is not complete JSON: the call must not run. */
  inputError?: string;
}

/** The result of one tool call, matched to it by `toolCallId`. */
export interface ToolResultPart {
  /** Discriminator. */
  type: 'tool_result';
  /** The id of the call this answers. */
  toolCallId: string;
  /** What the model sees. */
  content: Array<TextPart | ImagePart>;
  /** The call failed; `content` says why and what to do. */
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

/** A message from the user (or added for them: steering, reminders, notes; see `meta.origin`). */
export interface UserMessage {
  /** Discriminator. */
  role: 'user';
  /** Text and images. */
  content: Array<TextPart | ImagePart>;
  /** Metadata that never reaches the wire. */
  meta?: MessageMeta;
}

/** A reply of the model: text, reasoning and tool calls. */
export interface AssistantMessage {
  /** Discriminator. */
  role: 'assistant';
  /** Text, reasoning and tool calls, in the order the model produced them. */
  content: Array<TextPart | ThinkingPart | ToolCallPart>;
  /** Metadata that never reaches the wire, with the model and why it stopped. */
  meta?: MessageMeta & { model?: string; stopReason?: StopReason };
}

/** Tool results for the calls of the assistant message before it, in call order. */
export interface ToolMessage {
  /** Discriminator. */
  role: 'tool';
  /** One result per call. */
  content: ToolResultPart[];
  /** Metadata that never reaches the wire. */
  meta?: MessageMeta;
}

/** A message of the conversation history. */
export type Message = UserMessage | AssistantMessage | ToolMessage;

/** Why the model stopped producing output. */
export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'aborted' | 'error';

/** One section of the system prompt; `id` keeps sections distinguishable and their order stable. */
export interface SystemSection {
  /** A stable name (plugins find and replace their own sections by it). */
  id: string;
  /** The section's text. */
  text: string;
  /** Which part of the context budget the section counts toward (`/context`); default `system`. */
  part?: 'system' | 'memory' | 'projectMap';
}

/** Token usage reported by a provider for one request. */
export interface Usage {
  /** Input tokens billed at the full price. */
  inputTokens: number;
  /** Output tokens. */
  outputTokens: number;
  /** Input tokens served from the prompt cache. */
  cacheReadTokens: number;
  /** Input tokens written to the prompt cache. */
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
