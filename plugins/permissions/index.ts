import { definePlugin, Stage, type OriginEvent } from '../../core/index.js';
import { permissionsCommand } from './check-command.js';
import { classifyLayer } from './layers/classify.js';
import { fallbackLayer } from './layers/fallback.js';
import { grantsLayer } from './layers/grants.js';
import { guardLayer } from './layers/guard.js';
import { modeLayer } from './layers/mode.js';
import { pathsLayer } from './layers/paths.js';
import { allowLayer, denyAskLayer } from './layers/rules.js';
import { readOnlyLockSet } from './lockset.js';
import { optionsSchema, type PermissionsOptions } from './options.js';
import { createPolicy, type Policy } from './policy.js';

/** Between the named stages: allow rules after the mode, path limits before classification. */
const ALLOW_RULES = Stage.MODE + 50;
const PATH_LIMITS = Stage.DEFAULT + 50;

export default definePlugin<PermissionsOptions>({
  name: 'permissions',
  version: '0.1.0',
  configKey: 'permissions',
  optionsSchema,
  apply(kernel, options, { logger }) {
    const policy = createPolicy(kernel, options);
    const layers: Array<[number, string, (p: Policy) => Parameters<typeof kernel.hooks.permission.tapPromise>[1]]> = [
      [Stage.GUARD, 'guard', guardLayer],
      [Stage.POLICY, 'rules', denyAskLayer],
      [Stage.MODE, 'mode', modeLayer],
      [ALLOW_RULES, 'allow-rules', allowLayer],
      [PATH_LIMITS, 'paths', pathsLayer],
      [Stage.CLASSIFY, 'classifier', classifyLayer],
      [Stage.GRANTS, 'grants', grantsLayer],
      [Stage.LAST, 'ask', fallbackLayer],
    ];
    for (const [stage, name, layer] of layers) kernel.hooks.permission.tapPromise({ name: `permissions:${name}`, stage }, layer(policy));

    kernel.hooks.lockSet.tap({ name: 'permissions:read-only-shell' }, readOnlyLockSet(policy));

    // Decisions and answers are audited by the audit-log plugin; here answers only become grants.
    kernel.hooks.event.tap('permissions:grants', (event: OriginEvent) => {
      if (event.type !== 'approval' || event.answer.behavior !== 'allow') return;
      const rule = event.decision.suggestedRule;
      if (!rule || event.answer.scope === 'once') return;
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

    kernel.hooks.commands.tap('permissions', (registry) => registry.addCli(permissionsCommand(kernel)));
  },
});
