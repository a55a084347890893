import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/index.js';
import { diffForRequest } from './edit-diff.js';
import type { EventLog } from './event-log.js';

interface Pending {
  id: string;
  item: ApprovalRequest;
  settle: (answer: ApprovalAnswer) => void;
  view: Record<string, unknown>;
}

const SCOPES = new Set(['once', 'session', 'project']);

/** A web client's answer, checked: anything else than a known behavior and scope is no answer. */
export function parseAnswer(body: Record<string, unknown>): ApprovalAnswer | undefined {
  const { behavior, scope, message } = body;
  if (behavior !== 'allow' && behavior !== 'deny') return undefined;
  if (scope !== undefined && (typeof scope !== 'string' || !SCOPES.has(scope))) return undefined;
  if (message !== undefined && typeof message !== 'string') return undefined;
  return { behavior, scope: (scope as ApprovalAnswer['scope']) ?? 'once', ...(message ? { message: message.slice(0, 2000) } : {}) };
}

/**
 * The `ask` decisions of a served session waiting for a web client: each is announced as an
 * `approval_request` event (with the diff of an edit) and settled by the first valid answer.
 * An interrupt, a lost lease or the server closing answers "deny" to whatever still waits.
 */
export class PendingApprovals {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly log: EventLog) {}

  /** Asks about one batch; resolves once every item has an answer. */
  async ask(items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
    return Promise.all(items.map((item) => this.askOne(item)));
  }

  private async askOne(item: ApprovalRequest): Promise<ApprovalAnswer> {
    const id = randomUUID();
    const diff = await diffForRequest(item.request).catch(() => undefined);
    const view = {
      approval_id: id,
      call_id: item.request.callId,
      tool: item.request.tool,
      input: item.request.input,
      reason: item.decision.reason,
      ...(item.decision.suggestedRule ? { suggested_rule: item.decision.suggestedRule } : {}),
      ...(item.request.agentId ? { agent_id: item.request.agentId } : {}),
      ...(diff ? { diff } : {}),
    };
    return new Promise<ApprovalAnswer>((resolve) => {
      this.pending.set(id, { id, item, view, settle: resolve });
      this.log.append('approval_request', view);
    });
  }

  /** The approvals still waiting, as the UI shows them (a client that attaches later sees them too). */
  list(): Record<string, unknown>[] {
    return [...this.pending.values()].map((p) => p.view);
  }

  /** Settles one approval; false when no such approval waits (answered already, or never asked). */
  answer(id: string, answer: ApprovalAnswer): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    this.log.append('approval_resolved', { approval_id: id, behavior: answer.behavior, scope: answer.scope });
    entry.settle(answer);
    return true;
  }

  /** Denies everything still waiting, saying why. */
  denyAll(reason: string): void {
    for (const id of [...this.pending.keys()]) this.answer(id, { behavior: 'deny', scope: 'once', message: reason });
  }
}
