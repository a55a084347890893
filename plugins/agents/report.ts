import { errorResult, type Json, type Message, type ToolResult } from '../../core/index.js';
import type { SubAgentOutcome } from './run-agent.js';

/** Most characters of a report the caller receives; the rest is cut with a note. */
export const MAX_REPORT_CHARS = 20_000;
/** Most tool calls listed in a partial report. */
const MAX_LISTED_CALLS = 20;

/** Why a sub-agent stopped, for the caller; the loop's own message is added where it says more (the error, the failing call). */
function stoppedBecause(result: SubAgentOutcome['result'], timedOut: boolean): string {
  if (timedOut) return 'its Task call ran past its time limit';
  switch (result.reason) {
    case 'max_turns':
      return `it reached its turn limit (${result.turns} turns)`;
    case 'budget':
      return 'it reached its token or cost budget';
    case 'aborted':
      return 'it was interrupted';
    case 'tool_failures':
      return `too many of its tool calls failed in a row (${result.message ?? 'no detail'})`;
    default:
      return `it failed (${result.message ?? 'no detail'})`;
  }
}

function cut(text: string, max = MAX_REPORT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… report cut: ${text.length - max} more characters]`;
}

/** The text the sub-agent wrote along the way, turn by turn: its findings so far when it did not finish. */
function notes(messages: readonly Message[]): string[] {
  const texts: string[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('').trim();
    if (text) texts.push(text);
  }
  return texts;
}

/** "Read src/a.ts", "Grep TODO": the calls the sub-agent made, for a partial report. */
function callsMade(messages: readonly Message[]): string[] {
  const calls: string[] = [];
  for (const m of messages)
    if (m.role === 'assistant')
      for (const p of m.content) {
        if (p.type !== 'tool_call') continue;
        const key = Object.values(p.input).find((v) => typeof v === 'string') as string | undefined;
        calls.push(key ? `${p.name} ${key.split('\n')[0]!.slice(0, 80)}` : p.name);
      }
  return calls;
}

/**
 * The Task result: the sub-agent's final reply when it completed; otherwise what it had written so
 * far, with a clear note of why it stopped and what it did, so the caller can use the partial work.
 * Interrupted and failed runs are error results.
 */
export function agentReport(agentId: string, typeName: string, outcome: SubAgentOutcome, timedOut = false): ToolResult {
  const { result, messages } = outcome;
  const calls = callsMade(messages);
  const metadata: { [key: string]: Json } = {
    agentId,
    agentType: typeName,
    reason: result.reason,
    turns: result.turns,
    toolCalls: calls.length,
    inputTokens: result.usage.inputTokens + result.usage.cacheReadTokens + result.usage.cacheWriteTokens,
    outputTokens: result.usage.outputTokens,
    // Counted against the caller's budget by its loop (its own and its sub-agents' spending).
    spent: { tokens: result.spent.tokens, costUsd: result.spent.costUsd },
  };
  if (result.reason === 'completed') return { content: [{ type: 'text', text: cut(result.text.trim() || '(the sub-agent finished without writing a report)') }], metadata };

  const written = notes(messages);
  const listed = calls.slice(0, MAX_LISTED_CALLS).join('; ') + (calls.length > MAX_LISTED_CALLS ? `; and ${calls.length - MAX_LISTED_CALLS} more` : '');
  const note =
    `[Sub-agent ${agentId} (${typeName}) stopped before finishing: ${stoppedBecause(result, timedOut)}. ` +
    (written.length ? `Above is what it wrote in ${result.turns} turn${result.turns === 1 ? '' : 's'}: partial results, not a finished report. ` : 'It wrote nothing before it stopped. ') +
    (calls.length ? `It made ${calls.length} tool call${calls.length === 1 ? '' : 's'}: ${listed}.]` : 'It made no tool calls.]');
  const text = `${written.length ? cut(written.join('\n\n')) + '\n\n' : ''}${note}`;
  if (timedOut) return errorResult('ASSISTANT_TOOL_TIMEOUT', text, metadata);
  if (result.reason === 'aborted') return errorResult('ASSISTANT_TOOL_ABORTED', text, metadata);
  if (result.reason === 'error') return errorResult(result.error?.code ?? 'ASSISTANT_INTERNAL', text, metadata);
  return { content: [{ type: 'text', text }], metadata };
}
