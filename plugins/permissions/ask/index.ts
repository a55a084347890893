import { definePlugin, Stage } from '../../../core/index.js';
import { lazyLayer } from '../policy/lazy.js';
import { permissionTap } from '../policy/shared.js';

const fallbackLayer = lazyLayer('the ask layer', () => import('./fallback.js').then((m) => m.fallbackLayer));

/**
 * The last layer: no layer allowed the call, so a person must approve it (headless, a denial). It
 * says why and suggests the rule an "always" answer would record. Without it the kernel still asks,
 * with a plainer reason.
 */
export default definePlugin({
  name: 'permission-ask',
  version: '0.1.0',
  apply(kernel) {
    kernel.hooks.permission.tapPromise({ name: 'permissions:ask', stage: Stage.LAST }, permissionTap(kernel, fallbackLayer));
  },
});
