import { allowHint, type ApprovalAnswer, type ApprovalRequest } from '../../../core/index.js';

/** What the approval tap needs from the MCP connection: whether the client can ask its user, and the asking. */
export interface Asker {
  /** True when the client declared the `elicitation` capability. */
  canElicit(): boolean;
  /** Sends `elicitation/create` with a yes/no form; resolves with the client's answer. */
  elicit(message: string): Promise<{ action: string; content?: Record<string, unknown> }>;
}

/** The form an approval elicitation asks for: one explicit yes, so an empty "accept" never allows anything. */
export const APPROVAL_FORM = {
  type: 'object',
  properties: { allow: { type: 'boolean', title: 'Allow this call', description: 'Run it once; leave unticked to refuse', default: false } },
  required: ['allow'],
} as const;

/** One line saying what a call does, for the person asked about it. */
export function describeCall(item: ApprovalRequest): string {
  const { request } = item;
  const what = request.command ?? request.paths.join(', ');
  return `${request.tool}${what ? ` ${what}` : ''}`;
}

/** The denial given when the client cannot ask anyone: why, and which rule or mode would allow such a call. */
export function noElicitationDenial(item: ApprovalRequest): ApprovalAnswer {
  const { request, decision } = item;
  const rule = decision.suggestedRule ? `add "${decision.suggestedRule}" to permissions.allow in the project's .assistantrc` : undefined;
  // A layer's own hint wins (an empty one: no setting allows such a call); else the rule that would.
  const hint = decision.hint !== undefined ? allowHint(decision) : (rule ?? allowHint(decision));
  return {
    behavior: 'deny',
    scope: 'once',
    message: `${request.tool} needs approval (${decision.reason}) and this MCP client cannot ask its user (it does not support elicitation); ${hint ? `${hint}, or ` : ''}do the task another way`,
  };
}

/**
 * Answers a batch of `ask` decisions for `assistant mcp serve`: one elicitation per call when the
 * client supports it (allowed only on "accept" with `allow: true`, once), otherwise a denial that
 * names the rule to add. A failed or refused elicitation denies: nothing runs without a yes.
 */
export async function answerApprovals(asker: Asker, items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
  if (!asker.canElicit()) return items.map(noElicitationDenial);
  const answers: ApprovalAnswer[] = [];
  for (const item of items) {
    const message = `assistant wants to run ${describeCall(item)}: ${item.decision.reason}. Allow it once?`;
    try {
      const reply = await asker.elicit(message);
      const allowed = reply.action === 'accept' && reply.content?.allow === true;
      answers.push(allowed ? { behavior: 'allow', scope: 'once' } : { behavior: 'deny', scope: 'once', message: `the user of the MCP client refused ${item.request.tool} (${reply.action})` });
    } catch (error) {
      answers.push({ behavior: 'deny', scope: 'once', message: `asking the MCP client's user failed (${(error as Error)?.message ?? error}); denied to be safe` });
    }
  }
  return answers;
}
