import type { AssistantMessage, DoneReason, Json, Message, StopReason, ToolCallPart, ToolResultPart, Usage, UserMessage } from '../../core/index.js';
import type { RequestDigest } from './digest.js';

/** One record of the `recording` side channel, in the order things happened. */
export type RecordingEntry =
  /** A prompt as the user gave it (before `userPrompt` enrichment). */
  | { kind: 'prompt'; time: number; message: UserMessage }
  /** A model request; `added` holds the messages the previous request did not have, so previews can be shown. */
  | { kind: 'request'; time: number; agentId?: string; digest: RequestDigest; added: Message[] }
  | { kind: 'response'; time: number; agentId?: string; reason: StopReason; message: AssistantMessage; usage: Usage }
  /** The request failed; replay fails it the same way. */
  | { kind: 'error'; time: number; agentId?: string; message: string; code?: string }
  | { kind: 'tool'; time: number; agentId?: string; call: ToolCallPart; result: ToolResultPart; durationMs: number }
  /** How a prompt's work ended (main agent). */
  | { kind: 'done'; time: number; reason: DoneReason; turns: number };

export const asJson = (entries: RecordingEntry[]) => entries as unknown as Json[];
export const fromJson = (records: Json[]) => records as unknown as RecordingEntry[];
