import { definePlugin, Stage, type OriginEvent } from '../../../core/index.js';
import { lazyLayer } from '../policy/lazy.js';
import { permissionTap, policyOf } from '../policy/shared.js';

const grantsLayer = lazyLayer('the grants layer', () => import('./grants.js').then((m) => m.grantsLayer));

/**
 * What the user granted: "yes, for this session" answers are kept in the session and allow matching
 * calls; "always" answers go to the local settings file, where the rules layer reads them. It only
 * allows, so it requires the layers that must judge a call first.
 */
export default definePlugin({
  name: 'permission-grants',
  version: '0.1.0',
  requires: ['permission-guard', 'permission-rules', 'permission-mode'],
  apply(kernel, _options, { logger }) {
    kernel.hooks.permission.tapPromise({ name: 'permissions:grants', stage: Stage.GRANTS }, permissionTap(kernel, grantsLayer));

    kernel.hooks.event.tap('permissions:grants', (event: OriginEvent) => {
      if (event.type !== 'approval' || event.answer.behavior !== 'allow') return;
      const policy = policyOf(kernel);
      const rule = event.decision.suggestedRule;
      if (!policy || !rule || event.answer.scope === 'once') return;
      if (event.answer.scope === 'session')
        policy.grantForSession(rule).catch((error: unknown) => logger.error(`could not record the session grant ${rule}: ${(error as Error).message}`));
      else {
        try {
          policy.local.addAllow(rule);
        } catch (error) {
          logger.error(`could not save "always allow ${rule}" to ${policy.local.file}: ${(error as Error).message}`);
        }
      }
    });
  },
});
