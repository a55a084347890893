import type { Message, ToolCallPart, ToolResultPart, Usage } from './messages.js';
import type { ProviderStreamEvent } from './provider.js';
import type { ToolResult } from './tools.js';
import type { ApprovalAnswer, PermissionDecision, PermissionRequest } from './permission.js';

/** Where an event came from: the main agent, or a sub-agent by id. */
export interface EventOrigin {
  /** The sub-agent the event came from; absent for the main agent. */
  agentId?: string;
  /** The session it belongs to, when one is open. */
  sessionId?: string;
  /** For a sub-agent's events: the tool call (Task) that started it, so observers can nest them under it. */
  parentCallId?: string;
}

/** Everything observers (UI, stream-json output, audit, metrics) see, in the order it happened. */
export type AgentEvent =
  | { type: 'turn_start'; turn: number; prompt?: Message }
  | { type: 'model'; event: ProviderStreamEvent }
  | { type: 'tool_start'; call: ToolCallPart; summary: string }
  | {
      type: 'tool_end';
      call: ToolCallPart;
      result: ToolResultPart;
      durationMs: number;
      /** The tool's structured facts (line counts, exit code, diff stats), for one-line summaries. */
      metadata?: ToolResult['metadata'];
    }
  | { type: 'permission'; request: PermissionRequest; decision: PermissionDecision }
  /** A person (or headless mode) answered an `ask` decision; grant stores and audit logs listen. */
  | { type: 'approval'; request: PermissionRequest; decision: PermissionDecision; answer: ApprovalAnswer }
  | { type: 'notice'; level: 'info' | 'warn' | 'error'; message: string; code?: string }
  | { type: 'turn_end'; turn: number; usage: Usage }
  | { type: 'done'; reason: DoneReason; text: string; usage: Usage; turns: number };

/** Why a prompt's work ended. */
export type DoneReason = 'completed' | 'max_turns' | 'budget' | 'tool_failures' | 'aborted' | 'error';

/** An event with its origin attached. */
export type OriginEvent = AgentEvent & EventOrigin;
