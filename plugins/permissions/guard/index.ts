import { definePlugin, Stage } from '../../../core/index.js';
import { permissionTap } from '../policy/index.js';
import { guardLayer } from './guard.js';
import { pathsLayer } from './paths.js';

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
