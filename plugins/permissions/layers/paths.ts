import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import type { Policy } from '../policy.js';

/** Writes outside the project are refused unless a rule allowed them (rules run before this layer). */
export function pathsLayer(policy: Policy) {
  return async (request: PermissionRequest): Promise<PermissionDecision | undefined> => {
    const facts = await policy.facts(request);
    const outside = facts.writes.find((f) => f.real && !f.inside);
    if (!outside) return undefined;
    return {
      behavior: 'deny',
      layer: 'paths',
      reason: `writes outside the project (${outside.real}) are not allowed; work inside ${request.projectRoot}, or ask the user to add a rule such as Edit(${outside.real})`,
    };
  };
}
