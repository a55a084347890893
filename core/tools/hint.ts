import type { PermissionDecision } from '../types/permission.js';

/** What most `ask` decisions can be turned into an allow with; a layer that knows better gives its own hint. */
export const GENERIC_ALLOW_HINT = 'allow it with a rule in permissions.allow or a --permission-mode';

/**
 * The how-to-allow hint of a decision that needed a person no one could be: the deciding layer's
 * own, the generic one when it gave none, undefined when it gave an empty one (no setting allows it).
 */
export function allowHint(decision: PermissionDecision): string | undefined {
  if (decision.hint === undefined) return GENERIC_ALLOW_HINT;
  return typeof decision.hint === 'string' && decision.hint.trim() ? decision.hint.trim() : undefined;
}

/** The text a headless denial of an `ask` decision gives the model and the user. */
export function headlessDenialMessage(tool: string, decision: PermissionDecision): string {
  const hint = allowHint(decision);
  return `${tool} needs approval (${decision.reason}) and no one can approve in headless mode; ${hint ? `${hint}, or ` : ''}do the task another way`;
}
