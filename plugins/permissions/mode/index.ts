import { definePlugin, Stage } from '../../../core/index.js';
import { lazyLayer } from '../policy/lazy.js';
import { permissionTap } from '../policy/shared.js';

const modeLayer = lazyLayer('the mode layer', () => import('./mode.js').then((m) => m.modeLayer));

/**
 * The permission mode (plan, default, acceptEdits, bypass). Bypass allows whatever reaches it, so
 * the guard and the deny rules must run first: both are required.
 */
export default definePlugin({
  name: 'permission-mode',
  version: '0.1.0',
  requires: ['permission-guard', 'permission-rules'],
  apply(kernel) {
    kernel.hooks.permission.tapPromise({ name: 'permissions:mode', stage: Stage.MODE }, permissionTap(kernel, modeLayer));
  },
});
