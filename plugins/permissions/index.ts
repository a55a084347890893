import { definePlugin, isAssistantError, PluginError } from '../../core/index.js';
import { optionsSchema, type PermissionsOptions } from './policy/options.js';
import { createPolicy } from './policy/policy.js';
import { publishPolicy } from './policy/shared.js';
import { addDirCommand } from './add-dir.js';
import { permissionsCommand } from './check-command.js';
import { PERMISSION_ERRORS } from './errors.js';

/**
 * The permission policy's base: validates the `permissions` config section once, publishes the
 * state the layer plugins (permission-guard, -rules, -mode, -classifier, -grants, -ask) judge with,
 * and adds `assistant permissions check` and `/add-dir` (decisions are audited by the audit-log plugin). Disabling
 * it turns the whole built-in policy off (every layer abstains, so every call asks), as it always did.
 * Start-up loads only the options, rule parsing and the taps: the engine is imported at the first decision.
 */
export default definePlugin<PermissionsOptions>({
  name: 'permissions',
  version: '0.1.0',
  configKey: 'permissions',
  optionsSchema,
  errors: PERMISSION_ERRORS,
  apply(kernel, options) {
    let policy;
    try {
      policy = createPolicy(kernel, options);
    } catch (error) {
      // A rule the schema's pattern let through but that names nothing (`domain:host:443`) is a bad option: the run stops as for any.
      if (isAssistantError(error) && error.code === PERMISSION_ERRORS.ASSISTANT_PERMISSION_RULE_INVALID.code)
        throw new PluginError('ASSISTANT_PLUGIN_OPTIONS_INVALID', error.message, { plugin: 'permissions', file: error.file, cause: error });
      throw error;
    }
    publishPolicy(kernel, policy);
    kernel.hooks.commands.tap('permissions', (registry) => {
      registry.addCli(permissionsCommand(kernel));
      registry.addSlash(addDirCommand(kernel));
    });
  },
});
