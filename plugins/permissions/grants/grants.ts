import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import { coveringRule, type Policy } from '../policy/index.js';

/** Grants the user gave "for this session" earlier (kept in the session, so a resume keeps them). */
export async function grantsLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const grants = policy.sessionGrants();
  if (!grants.length) return undefined;
  const facts = await policy.facts(request);
  const rule = coveringRule(grants, policy.matchContext(request, facts));
  return rule ? { behavior: 'allow', layer: 'grants', reason: `you allowed ${rule.text} for this session` } : undefined;
}
