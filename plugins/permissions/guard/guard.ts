import type { PermissionDecision, PermissionRequest } from '../../../core/index.js';
import type { Policy } from '../policy/index.js';

const layer = 'guard';

/**
 * Hard blocks, before any rule or mode: malformed input, catastrophic commands (rm -rf /, fork
 * bombs, sudo, curl | sh, writes to /etc, /dev and shell start-up files) and secrets. Nothing
 * overrides these, bypass mode included.
 */
export async function guardLayer(policy: Policy, request: PermissionRequest): Promise<PermissionDecision | undefined> {
  const facts = await policy.facts(request);
  if (facts.malformed) return { behavior: 'deny', layer, reason: `${request.tool} was not run: ${facts.malformed}` };
  if (facts.blocks.length)
    return { behavior: 'deny', layer, reason: `blocked: ${facts.blocks[0]}. This never runs, in any permission mode; do the task another way` };
  if (facts.secrets.length)
    return {
      behavior: 'deny',
      layer,
      reason: `${facts.secrets[0]}. Secret files are never read or written by the agent; ask the user for what you need instead`,
    };
  return undefined;
}
