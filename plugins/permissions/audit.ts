import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectDataDir, type ApprovalAnswer, type OriginEvent, type PermissionDecision, type PermissionRequest } from '../../core/index.js';

/** A stable digest of a tool input: the same input always gives the same digest, whatever its key order. */
export function inputDigest(input: unknown): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
        : value;
  return 'sha256:' + createHash('sha256').update(JSON.stringify(canonical(input)) ?? 'undefined').digest('hex').slice(0, 32);
}

/** One line of the audit log. */
export interface AuditRecord {
  time: string;
  event: 'decision' | 'approval';
  sessionId?: string;
  agentId?: string;
  callId?: string;
  tool: string;
  inputDigest: string;
  mode: string;
  layer: string;
  behavior: PermissionDecision['behavior'];
  reason: string;
  /** For approvals: what the person (or headless mode) answered. */
  answer?: Pick<ApprovalAnswer, 'behavior' | 'scope'>;
}

function record(request: PermissionRequest, decision: PermissionDecision, event: OriginEvent, answer?: ApprovalAnswer): AuditRecord {
  return {
    time: new Date().toISOString(),
    event: answer ? 'approval' : 'decision',
    ...(event.sessionId ? { sessionId: event.sessionId } : {}),
    ...(event.agentId ? { agentId: event.agentId } : {}),
    ...(request.callId ? { callId: request.callId } : {}),
    tool: request.tool,
    inputDigest: inputDigest(request.input),
    mode: request.mode,
    layer: decision.layer,
    behavior: decision.behavior,
    reason: decision.reason,
    ...(answer ? { answer: { behavior: answer.behavior, scope: answer.scope } } : {}),
  };
}

/**
 * The permission audit log: one JSON line per decision and per approval answer, under the project's
 * data directory (`audit/<session>.jsonl`). Kept in this one module so it can move beside the
 * session file later.
 */
export class AuditLog {
  private readonly dir: string;
  private ready = false;

  constructor(projectRoot: string) {
    this.dir = join(projectDataDir(projectRoot), 'audit');
  }

  /** The file a session's records go to. */
  fileFor(sessionId: string | undefined): string {
    return join(this.dir, `${(sessionId ?? 'no-session').replace(/[^\w.-]/g, '_')}.jsonl`);
  }

  /** Appends the record an event carries (permission decisions and approval answers; other events are ignored). */
  write(event: OriginEvent): void {
    if (event.type !== 'permission' && event.type !== 'approval') return;
    const line = record(event.request, event.decision, event, event.type === 'approval' ? event.answer : undefined);
    if (!this.ready) {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      this.ready = true;
    }
    appendFileSync(this.fileFor(event.sessionId ?? event.request.sessionId), JSON.stringify(line) + '\n', { mode: 0o600 });
  }
}
