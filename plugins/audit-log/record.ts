import { createHash } from 'node:crypto';
import { stableJson, type Json } from '../../core/index.js';

/** A permission decision as the audit log keeps it. */
export interface AuditDecision {
  behavior: string;
  layer: string;
  reason: string;
}

/** One line of the audit log: a tool call, how it was judged and answered, its duration and outcome. */
export interface AuditRecord {
  time: number;
  sessionId: string;
  agentId?: string;
  callId: string;
  tool: string;
  summary?: string;
  /** The input, cut to `maxInputChars` (as JSON). */
  input?: Json;
  /** SHA-256 of the whole input with keys sorted: names the input even where `input` was cut. */
  inputDigest?: string;
  /** The permission mode the call was judged in. */
  mode?: string;
  /** The decision that let the call run or stopped it (`layer: approval` when a person answered). */
  decision?: AuditDecision;
  /** For a call that asked: the layer and reason that asked, and the answer (by a person, or headless mode's denial). */
  approval?: AuditDecision & { answer: { behavior: string; scope: string } };
  outcome?: 'ok' | 'error' | 'denied' | 'not_run';
  durationMs?: number;
  error?: string;
}

/** A digest of a tool input that does not depend on key order: `sha256:` and 32 hex digits. */
export function inputDigest(input: unknown): string {
  return 'sha256:' + createHash('sha256').update(stableJson(input)).digest('hex').slice(0, 32);
}

/** The input as logged: whole when short, else its first `max` characters of JSON. */
export function clip(input: Record<string, unknown>, max: number): Json {
  const text = JSON.stringify(input);
  return text.length <= max ? (JSON.parse(text) as Json) : { truncated: true, preview: text.slice(0, max) };
}

/** How a call that never reached `tool_end` ended. */
export function unfinishedOutcome(record: AuditRecord): AuditRecord['outcome'] {
  return record.decision?.behavior === 'deny' ? 'denied' : 'not_run';
}
