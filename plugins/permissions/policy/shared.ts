import { formatError, isAssistantError, type Kernel, type PermissionDecision, type PermissionRequest } from '../../../core/index.js';
import { PERMISSION_ERRORS } from '../errors.js';
import type { Policy } from './policy.js';

/**
 * The policy state the layer plugins share, one per kernel. The `permissions` plugin validates the
 * `permissions` config section once and publishes the state here; each layer looks it up per call.
 * Keyed by the kernel (a WeakMap, never filled on import), so a fresh kernel starts with none and
 * nothing needs resetting between kernels.
 */
const policies = new WeakMap<Kernel, Policy>();

/** Publishes a kernel's policy state; a second publication is refused (no plugin can swap the state under the layers). */
export function publishPolicy(kernel: Kernel, policy: Policy): void {
  if (policies.has(kernel)) throw new Error('the permission policy of this kernel is already published (is the permissions plugin loaded twice?)');
  policies.set(kernel, policy);
}

/** The kernel's policy state, or undefined when the `permissions` plugin is not loaded. */
export function policyOf(kernel: Kernel): Policy | undefined {
  return policies.get(kernel);
}

/** A permission layer: judges a request with the shared state, or abstains (`undefined`). */
export type PolicyLayer = (policy: Policy, request: PermissionRequest) => Promise<PermissionDecision | undefined>;

/**
 * Wraps a layer as a `permission` tap. With no published policy (the `permissions` plugin disabled,
 * as `["permissions", false]` always turned the whole built-in policy off) every layer abstains
 * together, and the call asks: no layer ever judges on its own with half the policy missing.
 */
export function permissionTap(kernel: Kernel, layer: PolicyLayer) {
  return async (request: PermissionRequest): Promise<PermissionDecision | undefined> => {
    const policy = policyOf(kernel);
    if (!policy) return undefined;
    try {
      return await layer(policy, request);
    } catch (error) {
      // The engine is imported at the first decision (lazy.ts): if it cannot be, the call is denied
      // here, with the code in the reason the model, the user and the audit log see. Any other
      // throw denies too, in the kernel (decidePermission fails closed).
      if (isAssistantError(error) && error.code === PERMISSION_ERRORS.ASSISTANT_PERMISSION_ENGINE_FAILED.code)
        return { behavior: 'deny', layer: 'permissions', reason: formatError(error), hint: '' };
      throw error;
    }
  };
}
