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
  system: SystemSection[];
  messages: Message[];
  tools: ToolSpec[];
  cache: CacheHints;
  budget: ContextBudget;
  model: string;
}

/** Why the context is being built. */
export interface ContextReason {
  /** `turn`: before a model call; `compact`: on request (e.g. `/compact focus`). */
  kind: 'turn' | 'compact';
  focus?: string;
  sessionId?: string;
  agentId?: string;
}
