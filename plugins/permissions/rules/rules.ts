import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import { coveringRule, firstMatch, type Policy, type Rule } from '../policy/index.js';

const layer = 'rules';

function where(rule: Rule): string {
  return `the ${rule.kind} rule ${rule.text} (${rule.source})`;
}

/** deny and ask rules from the configuration and the local settings file: they hold in every mode. */
export async function denyAskLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const facts = await policy.facts(request);
  const context = policy.matchContext(request, facts);
  const local = policy.local.rules();
  const denied = firstMatch([...policy.config.deny, ...local.deny], context);
  if (denied) return { behavior: 'deny', layer, reason: `denied by ${where(denied)}` };
  const asked = firstMatch([...policy.config.ask, ...local.ask], context);
  // No allow rule or mode outranks an ask rule: only a person, or removing the rule, lets it run.
  if (asked) return { behavior: 'ask', layer, reason: `${where(asked)} says to ask`, hint: `approve it in an interactive session, or remove ${asked.text} from the ask rules` };
  return undefined;
}

/** allow rules: every part of the call must be covered by a rule or be safe on its own. Runs after the mode, so plan mode still refuses writes. */
export async function allowLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const facts = await policy.facts(request);
  const rule = coveringRule([...policy.config.allow, ...policy.local.rules().allow], policy.matchContext(request, facts));
  return rule ? { behavior: 'allow', layer, reason: `allowed by ${where(rule)}` } : undefined;
}
