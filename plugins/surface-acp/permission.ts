import type * as acp from '@agentclientprotocol/sdk';
import type { ApprovalAnswer, ApprovalRequest } from '../../core/index.js';
import { toolCallFor, type CallScope } from './tool-calls.js';

/** Asks the editor (`session/request_permission`); resolves with its response. */
export type RequestPermission = (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;

/** The choices offered: once, always (only when the policy names the rule it would record), reject. */
export function permissionOptions(suggestedRule: string | undefined): acp.PermissionOption[] {
  return [
    { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
    ...(suggestedRule ? [{ optionId: 'allow_always', name: `Always allow ${suggestedRule}`, kind: 'allow_always' as const }] : []),
    { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  ];
}

/**
 * The editor's choice as our answer. "Always" is the terminal's "always": the suggested rule is
 * saved to the project's local settings (the grants layer records it). A cancelled request, an
 * unknown option or "always" without a rule to record all deny (fails closed).
 */
export function answerFor(response: acp.RequestPermissionResponse | undefined, suggestedRule: string | undefined): ApprovalAnswer {
  const outcome = response?.outcome;
  if (outcome?.outcome !== 'selected') return { behavior: 'deny', scope: 'once', message: 'the request was cancelled in the editor' };
  if (outcome.optionId === 'allow_once') return { behavior: 'allow', scope: 'once' };
  if (outcome.optionId === 'allow_always' && suggestedRule) return { behavior: 'allow', scope: 'project' };
  if (outcome.optionId === 'reject_once') return { behavior: 'deny', scope: 'once', message: 'the user rejected this call in the editor; do the task another way or ask them' };
  return { behavior: 'deny', scope: 'once', message: `the editor answered an unknown option (${JSON.stringify(outcome.optionId)}); denied to be safe` };
}

/** Asks the editor about each call of a batch in turn; once the prompt is cancelled, the rest are denied unasked. */
export async function askEditor(sessionId: string, items: ApprovalRequest[], scope: CallScope, request: RequestPermission, signal: AbortSignal): Promise<ApprovalAnswer[]> {
  const answers: ApprovalAnswer[] = [];
  for (const { request: call, decision } of items) {
    if (signal.aborted) {
      answers.push({ behavior: 'deny', scope: 'once', message: 'the prompt was cancelled' });
      continue;
    }
    const toolCall = toolCallFor({ type: 'tool_call', id: call.callId ?? '', name: call.tool, input: call.input }, scope);
    const response = await request(
      { sessionId, toolCall: { ...toolCall, title: `${toolCall.title}: ${decision.reason}` }, options: permissionOptions(decision.suggestedRule) },
      signal,
    ).catch(() => undefined);
    answers.push(answerFor(response, decision.suggestedRule));
  }
  return answers;
}
