import type { Message, SystemSection } from './messages.js';
import type { CacheHints, ToolSpec } from './provider.js';

/** The token budget of one request. */
export interface ContextBudget {
  /** The model's context window. */
  window: number;
  /** Tokens kept free for the model's output. */
  outputReserve: number;
}

/** What will be sent to the model on this request; context strategies return a new one. */
export interface ContextView {
  /** System prompt sections. */
  system: SystemSection[];
  /** The messages to send (a strategy may summarize, drop or cut them, keeping call/result pairs intact). */
  messages: Message[];
  /** Tools offered to the model. */
  tools: ToolSpec[];
  /** Where prompt-cache breakpoints go. */
  cache: CacheHints;
  /** The window and output reserve the request must fit. */
  budget: ContextBudget;
  /** The model the request goes to. */
  model: string;
}

/** A compacted history that replaces the stored one, with what it saved. */
export interface HistoryReplacement {
  /** The new history. */
  messages: Message[];
  /** Input tokens of the request before the replacement. */
  tokensBefore: number;
  /** Input tokens of the request after the replacement. */
  tokensAfter: number;
}

/** Why the context is being built. */
export interface ContextReason {
  /** `turn`: before a model call; `compact`: on request (e.g. `/compact focus`). */
  kind: 'turn' | 'compact';
  /** What to keep when compacting on request (`/compact <focus>`). */
  focus?: string;
  /** The session the request belongs to. */
  sessionId?: string;
  /** The sub-agent making the request; absent for the main agent. */
  agentId?: string;
  /** Aborts work the strategy does for this request (a summary call). */
  signal?: AbortSignal;
  /**
   * Replaces the stored history (a deliberate compaction): recorded as a `compaction` event in a
   * session, so later requests and a resume start from it. Absent when nothing can be replaced.
   */
  replaceHistory?: (replacement: HistoryReplacement) => Promise<void>;
}

/** A part of a request the budget is broken down into (`/context`). */
export type ContextPart = 'system' | 'tools' | 'memory' | 'projectMap' | 'summary' | 'history' | 'todo';

/** Input tokens of one request by part, against the model's window. */
export interface ContextMeasure {
  /** Input tokens by part. */
  parts: Record<ContextPart, number>;
  /** Input tokens of the whole request. */
  total: number;
  /** The model's context window. */
  window: number;
  /** Tokens kept free for the reply. */
  outputReserve: number;
  /** Kept free for the tokenizer's error on what the provider has not reported on yet (a share of the new content). */
  margin: number;
  /** Input tokens still free before the margin and output reserve are touched (negative: the request does not fit). */
  free: number;
  /** `reported`: the provider's usage for the part already sent plus the tokenizer for what is new; `estimated`: the tokenizer alone. */
  basis: 'reported' | 'estimated';
}
