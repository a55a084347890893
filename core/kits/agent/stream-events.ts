import type { DoneReason } from '../../types/events.js';
import type { StopReason, Usage } from '../../types/messages.js';

/** The fields every stream-json event carries (docs/stream-json.schema.json). */
interface Base {
  /** Protocol version (STREAM_JSON_VERSION). */
  v: number;
  session_id: string;
  /** Set on a sub-agent's events. */
  agent_id?: string;
  /** The Task call that started the sub-agent. */
  parent_call_id?: string;
}

/** One event of a run, as `--output-format stream-json` prints it and `query()` yields it. */
export type StreamJsonEvent = Base &
  (
    | { type: 'turn_start'; turn: number }
    | { type: 'text_delta' | 'thinking_delta'; text: string }
    | { type: 'tool_call'; id: string; name: string; input: Record<string, unknown>; input_error?: string }
    | { type: 'usage'; usage: Usage }
    | { type: 'retry'; attempt: number; delay_ms: number; reason: string; discard: boolean }
    | { type: 'message_end'; stop_reason: StopReason; usage: Usage }
    | { type: 'tool_start'; id: string; name: string; summary: string }
    | {
        type: 'tool_result';
        id: string;
        name: string;
        is_error: boolean;
        duration_ms: number;
        content: Array<{ type: 'text'; text: string } | { type: 'image'; media_type: string }>;
      }
    | { type: 'permission'; tool: string; call_id?: string; behavior: 'allow' | 'deny' | 'ask'; layer: string; reason: string }
    | { type: 'notice'; level: 'info' | 'warn' | 'error'; message: string; code?: string }
    | { type: 'turn_end'; turn: number; usage: Usage }
    | {
        type: 'result';
        reason: DoneReason;
        is_error: boolean;
        text: string;
        turns: number;
        usage: Usage;
        total_usage: Usage;
        message?: string;
        error_code?: string;
      }
  );
