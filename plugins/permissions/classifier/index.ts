import { definePlugin, Stage } from '../../../core/index.js';
import { lazyLayer } from '../policy/lazy.js';
import { permissionTap } from '../policy/shared.js';
import { readOnlyLockSet } from './lockset.js';

const classifyLayer = lazyLayer('the shell classifier layer', () => import('./classify.js').then((m) => m.classifyLayer));

/**
 * Shell commands proven read-only on a real parse run without asking, and beside other reads in the
 * scheduler (`lockSet`). It only allows, so it requires the layers that must judge a call first.
 */
export default definePlugin({
  name: 'permission-classifier',
  version: '0.1.0',
  requires: ['permission-guard', 'permission-rules', 'permission-mode'],
  apply(kernel) {
    kernel.hooks.permission.tapPromise({ name: 'permissions:classifier', stage: Stage.CLASSIFY }, permissionTap(kernel, classifyLayer));
    kernel.hooks.lockSet.tap({ name: 'permissions:read-only-shell' }, readOnlyLockSet(kernel));
  },
});
