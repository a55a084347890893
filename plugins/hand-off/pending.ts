import type { ApprovalRequest, Json, Message } from '../../core/index.js';

/** The side channel where surfaces note the approvals they ask, and the calls a person allowed. */
export const APPROVALS_CHANNEL = 'approvals';

/** One call a surface asked a person about. */
interface AskedCall {
  callId: string;
  tool: string;
  /** The command or paths, for people. */
  what: string;
}

/** A record of the channel: a batch asked (by which surface), calls a person allowed, or calls already carried into a later surface. */
export type ApprovalRecord =
  | { kind: 'asked'; time: number; where: string; calls: AskedCall[] }
  | { kind: 'allowed' | 'carried'; callIds: string[] };

/** The record of a batch about to be asked: main-agent calls only (a sub-agent's live in its own history). */
export function askedRecord(items: ApprovalRequest[], where: string): ApprovalRecord | undefined {
  const calls = items
    .filter((i) => i.request.callId && !i.request.agentId)
    .map((i) => ({ callId: i.request.callId!, tool: i.request.tool, what: i.request.command ?? i.request.paths.join(', ') }));
  return calls.length ? { kind: 'asked', time: Date.now(), where, calls } : undefined;
}

/** The tool-result message of a call, if the history has one. */
function resultMessage(messages: readonly Message[], callId: string): Message | undefined {
  return messages.find((m) => m.role === 'tool' && m.content.some((p) => p.type === 'tool_result' && p.toolCallId === callId));
}

/** Calls of one earlier surface that were still waiting for a person when the session left it. */
export interface PendingBatch {
  where: string;
  calls: AskedCall[];
}

/**
 * The calls asked about and never allowed, whose only result is the note a resume adds for calls
 * a surface left unfinished (or none): they waited for approval when the session moved, and never ran.
 */
export function pendingApprovals(records: Json[], messages: readonly Message[]): PendingBatch[] {
  const settled = new Set<string>();
  const asked: Array<{ where: string; call: AskedCall }> = [];
  for (const raw of records as ApprovalRecord[]) {
    if (raw?.kind === 'asked' && Array.isArray(raw.calls)) for (const call of raw.calls) asked.push({ where: String(raw.where), call });
    else if ((raw?.kind === 'allowed' || raw?.kind === 'carried') && Array.isArray(raw.callIds)) for (const id of raw.callIds) settled.add(id);
  }
  const batches = new Map<string, AskedCall[]>();
  for (const { where, call } of asked) {
    if (settled.has(call.callId)) continue;
    const result = resultMessage(messages, call.callId);
    if (result && result.meta?.origin !== 'system-note') continue;
    batches.set(where, [...(batches.get(where) ?? []), call]);
  }
  return [...batches].map(([where, calls]) => ({ where, calls }));
}

/** Channel text (any surface sharing the store wrote it) made safe to show: no control characters, bounded. */
const printable = (value: unknown, max = 200) => String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, max);

/** The note the model and the new surface get: what waited, where, and that it did not run. */
export function pendingNote(batches: PendingBatch[]): string {
  const call = (c: AskedCall) => printable(`${c.tool}${c.what ? ` ${c.what}` : ''}`);
  const lines = batches.map((b) => `waiting in ${printable(b.where)}: ${b.calls.map(call).join('; ')}`);
  return `Note: the session moved to this surface while tool calls waited for the user's approval, so they did not run (${lines.join(' | ')}). Call them again if they are still needed: the user will be asked here.`;
}
