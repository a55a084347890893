import type { ApprovalAnswer, ApprovalRequest, PermissionDecision, PermissionRequest } from '../core/types/permission.js';

/** A tool call that needs approval, as `canUseTool` receives it. */
export interface ToolApproval {
  /** The tool called, e.g. `Bash`. */
  tool: string;
  /** Its input. */
  input: Record<string, unknown>;
  /** Why it needs approval, in words for people. */
  reason: string;
  /** The rule an "allow for the session / always" answer records, e.g. `Bash(npm test:*)`; without one, only `once` applies. */
  suggestedRule?: string;
  /** The whole request the permission engine judged (paths, command, mode...). */
  request: PermissionRequest;
  /** The `ask` decision and the layer that made it. */
  decision: PermissionDecision;
  /** Aborts when the query is interrupted: the answer no longer matters (the call is denied). */
  signal: AbortSignal;
}

/**
 * The callback's answer. `allow` runs the call: `once` (the default), for the rest of the `session`,
 * or always in this `project` (saved to the project's local settings, as the terminal's "always"
 * does). `deny` refuses it; `message` tells the model what to do instead.
 */
export type ToolApprovalAnswer = { behavior: 'allow'; scope?: 'once' | 'session' | 'project' } | { behavior: 'deny'; message?: string };

/** Decides on one call that needs approval. */
export type CanUseTool = (approval: ToolApproval) => ToolApprovalAnswer | Promise<ToolApprovalAnswer>;

const SCOPES = new Set(['once', 'session', 'project']);

/** The callback's answer as the kernel's; anything else is a denial that says why (fails closed). */
function toAnswer(answer: unknown): ApprovalAnswer {
  const a = answer as { behavior?: unknown; scope?: unknown; message?: unknown } | undefined;
  if (a?.behavior === 'allow') {
    const scope = a.scope ?? 'once';
    if (SCOPES.has(scope as string)) return { behavior: 'allow', scope: scope as ApprovalAnswer['scope'] };
    return { behavior: 'deny', scope: 'once', message: `canUseTool answered an unknown scope (${JSON.stringify(a.scope)}); denied to be safe` };
  }
  if (a?.behavior === 'deny') return { behavior: 'deny', scope: 'once', ...(typeof a.message === 'string' && a.message.trim() ? { message: a.message } : {}) };
  return { behavior: 'deny', scope: 'once', message: 'canUseTool gave no valid answer ({ behavior: "allow" | "deny" }); denied to be safe' };
}

/** Asks `canUseTool` about each call of a batch in turn; once the query is interrupted, the rest are denied unasked. */
export async function askEach(canUseTool: CanUseTool, items: ApprovalRequest[], signal: AbortSignal): Promise<ApprovalAnswer[]> {
  const answers: ApprovalAnswer[] = [];
  for (const { request, decision } of items) {
    if (signal.aborted) {
      answers.push({ behavior: 'deny', scope: 'once', message: 'the query was interrupted' });
      continue;
    }
    const answer = await canUseTool({
      tool: request.tool,
      input: request.input,
      reason: decision.reason,
      ...(decision.suggestedRule ? { suggestedRule: decision.suggestedRule } : {}),
      request,
      decision,
      signal,
    });
    answers.push(toAnswer(answer));
  }
  return answers;
}
