import { isAssistantError } from '../kernel/errors.js';
import type { Hooks } from '../kernel/hooks.js';
import type { ToolCallPart } from '../types/messages.js';
import type { ApprovalAnswer, ApprovalRequest, PermissionDecision, PermissionRequest } from '../types/permission.js';
import type { ToolDefinition } from '../types/tools.js';
import { touchedBy } from './touched.js';
import { headlessDenialMessage } from './hint.js';

/** Where a call is judged: the request's own fields, so the two never drift apart. */
export type PermissionScope = Pick<PermissionRequest, 'projectRoot' | 'cwd' | 'mode' | 'headless' | 'sessionId' | 'agentId'>;

/**
 * Builds the request the permission hook judges: the paths come from the tool's lock set (its one
 * declaration of what it touches), the category and command from its risk hints. Never throws: a
 * declaration that fails makes the request an unbounded write (see `touchedBy`).
 */
export function permissionRequestFor(definition: ToolDefinition<any>, call: ToolCallPart, scope: PermissionScope): PermissionRequest {
  const touched = touchedBy(definition, call, { projectRoot: scope.projectRoot, cwd: scope.cwd });
  return {
    tool: call.name,
    input: call.input,
    category: touched.category,
    paths: touched.paths,
    ...(touched.unbounded ? { unbounded: touched.unbounded } : {}),
    command: touched.command,
    projectRoot: scope.projectRoot,
    cwd: scope.cwd,
    mode: scope.mode,
    headless: scope.headless,
    sessionId: scope.sessionId,
    agentId: scope.agentId,
    callId: call.id,
  };
}

const BEHAVIORS = new Set(['allow', 'deny', 'ask']);

/**
 * Runs the permission hook. Fails closed: a throwing policy, or an answer that is not a decision,
 * is a denial. When every layer abstains the call needs a person (`ask`).
 */
export async function decidePermission(hooks: Hooks, request: PermissionRequest): Promise<PermissionDecision> {
  let decision: PermissionDecision | undefined;
  try {
    decision = await hooks.permission.promise(request);
  } catch (error) {
    const layer = isAssistantError(error) && error.plugin ? error.plugin : 'kernel';
    return {
      behavior: 'deny',
      reason: `the permission check failed, so the call is denied to be safe: ${(error as Error)?.message ?? error}`,
      layer,
    };
  }
  if (decision === undefined) return { behavior: 'ask', reason: 'no rule allows this call', layer: 'default' };
  if (!decision || !BEHAVIORS.has(decision.behavior))
    return { behavior: 'deny', reason: 'a permission policy returned something that is not a decision; denied to be safe', layer: 'kernel' };
  return decision;
}

/** The answer given in headless mode, where no one can approve. */
function headlessDenial(item: ApprovalRequest): ApprovalAnswer {
  return {
    behavior: 'deny',
    scope: 'once',
    message: headlessDenialMessage(item.request.tool, item.decision),
  };
}

/**
 * Asks a person about the `ask` decisions of one batch through the approval hook. Headless, no
 * approval UI, a failing UI or a malformed answer all mean deny. Every answer is announced as an
 * `approval` event, so grant stores can record "this session" / "always" answers and audit logs
 * the outcome.
 */
export async function resolveApprovals(hooks: Hooks, pending: ApprovalRequest[], headless: boolean): Promise<ApprovalAnswer[]> {
  const answers = await collectAnswers(hooks, pending, headless);
  pending.forEach((item, i) =>
    hooks.event.call({ type: 'approval', request: item.request, decision: item.decision, answer: answers[i]!, agentId: item.request.agentId, sessionId: item.request.sessionId }),
  );
  return answers;
}

async function collectAnswers(hooks: Hooks, pending: ApprovalRequest[], headless: boolean): Promise<ApprovalAnswer[]> {
  if (!pending.length) return [];
  if (headless) return pending.map(headlessDenial);
  let answers: ApprovalAnswer[] | undefined;
  try {
    answers = await hooks.approval.promise(pending);
  } catch (error) {
    const reason = `the approval prompt failed (${(error as Error)?.message ?? error}); denied to be safe`;
    return pending.map(() => ({ behavior: 'deny', scope: 'once', message: reason }));
  }
  if (!answers || answers.length !== pending.length) return pending.map(headlessDenial);
  return answers.map((a) => (a && (a.behavior === 'allow' || a.behavior === 'deny') ? a : { behavior: 'deny', scope: 'once', message: 'no valid answer' }));
}
