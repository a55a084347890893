import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import type { Policy } from '../policy/index.js';

/**
 * Writes outside the project are refused unless a rule allowed them (rules run before this layer);
 * a path that is not what it seems (a hard link, a name with bidi or control characters) asks.
 */
export async function pathsLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const facts = await policy.facts(request);
  // A hard link or a deceptive name is not proven to be what it says: a person looks first.
  const doubtful = [...facts.reads, ...facts.writes].find((f) => f.concern);
  if (doubtful) return { behavior: 'ask', layer: 'paths', reason: `${request.tool}: ${doubtful.concern}` };
  const outside = facts.writes.find((f) => f.real && !f.inside);
  if (!outside) return undefined;
  return {
    behavior: 'deny',
    layer: 'paths',
    reason: `writes outside the project (${outside.real}) are not allowed; work inside ${request.projectRoot}, or ask the user to add a rule such as Edit(${outside.real})`,
  };
}
