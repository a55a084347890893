import { definePlugin, Stage } from '../../../core/index.js';
import { lazyLayer } from '../policy/lazy.js';
import { permissionTap } from '../policy/shared.js';

const denyAskLayer = lazyLayer('the deny and ask rules layer', () => import('./rules.js').then((m) => m.denyAskLayer));
const allowLayer = lazyLayer('the allow rules layer', () => import('./rules.js').then((m) => m.allowLayer));

/**
 * The project's rules (`permissions.deny` / `ask` / `allow` and the local settings file): deny and
 * ask rules before the mode, allow rules after it. An allow rule is only safe with the guard before
 * it and the mode (plan mode, writes to the agent's own controls) between, so both are required.
 */
export default definePlugin({
  name: 'permission-rules',
  version: '0.1.0',
  requires: ['permission-guard', 'permission-mode'],
  apply(kernel) {
    kernel.hooks.permission.tapPromise({ name: 'permissions:rules', stage: Stage.POLICY }, permissionTap(kernel, denyAskLayer));
    kernel.hooks.permission.tapPromise({ name: 'permissions:allow-rules', stage: Stage.ALLOW_RULES }, permissionTap(kernel, allowLayer));
  },
});
