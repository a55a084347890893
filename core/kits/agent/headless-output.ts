import type { Kernel } from '../../kernel/kernel-types.js';
import type { AgentLoopResult } from '../../types/agent.js';
import type { OriginEvent } from '../../types/events.js';
import type { Usage } from '../../types/messages.js';
import type { StreamJsonEvent } from './stream-events.js';

export type { StreamJsonEvent } from './stream-events.js';

/** `--output-format`: the final text, one JSON result, or one JSON event per line. */
export type OutputFormat = 'text' | 'json' | 'stream-json';

/** The stream-json protocol version every line carries (docs/headless.md, docs/stream-json.schema.json). */
export const STREAM_JSON_VERSION = 1;

/** Turns an internal event into a stream-json line (or nothing for events not in the protocol). */
export function streamJsonLine(event: OriginEvent, sessionId: string): StreamJsonEvent | undefined {
  const base = {
    v: STREAM_JSON_VERSION,
    session_id: sessionId,
    ...(event.agentId ? { agent_id: event.agentId } : {}),
    ...(event.parentCallId ? { parent_call_id: event.parentCallId } : {}),
  };
  switch (event.type) {
    case 'model': {
      const e = event.event;
      if (e.type === 'text_delta') return { ...base, type: 'text_delta', text: e.text };
      if (e.type === 'thinking_delta') return { ...base, type: 'thinking_delta', text: e.text };
      if (e.type === 'tool_call_end') return { ...base, type: 'tool_call', id: e.id, name: e.name, input: e.input, ...(e.inputError ? { input_error: e.inputError } : {}) };
      if (e.type === 'usage') return { ...base, type: 'usage', usage: e.usage };
      if (e.type === 'retry') return { ...base, type: 'retry', attempt: e.attempt, delay_ms: e.delayMs, reason: e.reason, discard: e.discard ?? false };
      if (e.type === 'stop') return { ...base, type: 'message_end', stop_reason: e.reason, usage: e.usage };
      return undefined;
    }
    case 'tool_start':
      return { ...base, type: 'tool_start', id: event.call.id, name: event.call.name, summary: event.summary };
    case 'tool_end':
      return {
        ...base,
        type: 'tool_result',
        id: event.call.id,
        name: event.call.name,
        is_error: event.result.isError ?? false,
        duration_ms: event.durationMs,
        content: event.result.content.map((c) => (c.type === 'text' ? { type: 'text', text: c.text } : { type: 'image', media_type: c.mediaType })),
      };
    case 'permission':
      return {
        ...base,
        type: 'permission',
        tool: event.request.tool,
        call_id: event.request.callId,
        behavior: event.decision.behavior,
        layer: event.decision.layer,
        reason: event.decision.reason,
      };
    case 'notice':
      return { ...base, type: 'notice', level: event.level, message: event.message, ...(event.code ? { code: event.code } : {}) };
    case 'turn_start':
      return { ...base, type: 'turn_start', turn: event.turn };
    case 'turn_end':
      return { ...base, type: 'turn_end', turn: event.turn, usage: event.usage };
    case 'done':
      return undefined; // the final `result` line carries it
  }
}

/** Prints the run's output in the chosen format; outside stream-json, warnings and refused tool calls go to stderr. */
export function attachOutput(kernel: Kernel, format: OutputFormat, sessionId: string): { finish(result: AgentLoopResult): void; detach(): void } {
  let attached = true;
  // The ledger's totals so far: the run's own total (sub-agents and compaction included) is what it adds.
  const before = kernel.budget.totals().usage;
  const write = (line: StreamJsonEvent) => process.stdout.write(JSON.stringify(line) + '\n');
  kernel.hooks.event.tap('headless-output', (event) => {
    if (!attached) return;
    if (format === 'stream-json') {
      const line = streamJsonLine(event, sessionId);
      if (line) write(line);
    } else if (event.agentId) {
      // A sub-agent's notices and refusals reach the user through its report.
    } else if (event.type === 'notice' && event.level !== 'info') {
      // A coded failure reads as every other error does (`CODE: message`); a warning keeps its label.
      process.stderr.write(event.level === 'error' && event.code ? `${event.code}: ${event.message}\n` : `${event.level}: ${event.message}\n`);
    } else if (event.type === 'permission' && event.decision.behavior === 'deny') {
      // The answer on stdout may not say a call was refused; the user should know it was.
      // A denying layer may say how the call could be allowed ("lift the freeze in release.json").
      const hint = event.decision.hint?.trim();
      process.stderr.write(`denied: ${event.request.tool}: ${event.decision.reason}${hint ? `; ${hint}` : ''}\n`);
    }
  });
  return {
    finish(result) {
      const summary = resultLine(result, sessionId, before, kernel.budget.totals().usage);
      if (format === 'text') {
        if (result.text) process.stdout.write(result.text.endsWith('\n') ? result.text : result.text + '\n');
      } else write(summary);
    },
    detach() {
      attached = false;
    },
  };
}

/** The last line of a run: how it ended, its text, and what it spent (`before`/`after`: the ledger's totals around it). */
export function resultLine(result: AgentLoopResult, sessionId: string, before: Usage, after: Usage): StreamJsonEvent {
  return {
    v: STREAM_JSON_VERSION,
    type: 'result',
    session_id: sessionId,
    reason: result.reason,
    is_error: result.reason !== 'completed',
    text: result.text,
    turns: result.turns,
    usage: result.usage,
    total_usage: usageSince(before, after),
    ...(result.message ? { message: result.message } : {}),
    ...(result.error ? { error_code: result.error.code } : {}),
  };
}

/** What `after` adds to `before`, field by field (a run's own usage out of the ledger's running totals). */
export function usageSince(before: Usage, after: Usage): Usage {
  return {
    inputTokens: after.inputTokens - before.inputTokens,
    outputTokens: after.outputTokens - before.outputTokens,
    cacheReadTokens: after.cacheReadTokens - before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens - before.cacheWriteTokens,
  };
}
