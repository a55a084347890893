import { definePlugin, Stage } from '../../../core/index.js';
import { lazyLayer } from '../policy/lazy.js';
import { permissionTap } from '../policy/shared.js';

// Each layer's module is imported at its first decision (policy/lazy.ts), never at start.
const guardLayer = lazyLayer('the guard layer', () => import('./guard.js').then((m) => m.guardLayer));
const pathsLayer = lazyLayer('the path limits layer', () => import('./paths.js').then((m) => m.pathsLayer));

/**
 * The fences of the permission policy: hard blocks and secrets first (nothing overrides them, bypass
 * included), path limits after the allow rules (writes outside the project, doubtful paths). Every
 * layer that can allow requires this plugin, so dropping it stops the start instead of opening up.
 */
export default definePlugin({
  name: 'permission-guard',
  version: '0.1.0',
  apply(kernel) {
    kernel.hooks.permission.tapPromise({ name: 'permissions:guard', stage: Stage.GUARD }, permissionTap(kernel, guardLayer));
    kernel.hooks.permission.tapPromise({ name: 'permissions:paths', stage: Stage.PATH_LIMITS }, permissionTap(kernel, pathsLayer));
  },
});
