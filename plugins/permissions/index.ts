import { definePlugin, type OriginEvent } from '../../core/index.js';
import { createPolicy, optionsSchema, publishPolicy, type PermissionsOptions } from './policy/index.js';
import { AuditLog } from './audit.js';
import { permissionsCommand } from './check-command.js';

/**
 * The permission policy's base: validates the `permissions` config section once, publishes the
 * state the layer plugins (permission-guard, -rules, -mode, -classifier, -grants, -ask) judge with,
 * writes the audit log and adds `assistant permissions check`. Disabling it turns the whole built-in
 * policy off (every layer abstains, so every call asks), as it always did.
 */
export default definePlugin<PermissionsOptions>({
  name: 'permissions',
  version: '0.1.0',
  configKey: 'permissions',
  optionsSchema,
  apply(kernel, options, { logger }) {
    publishPolicy(kernel, createPolicy(kernel, options));

    const audit = options.audit ? new AuditLog(kernel.projectRoot) : undefined;
    kernel.hooks.event.tap('permissions:audit', (event: OriginEvent) => {
      try {
        audit?.write(event);
      } catch (error) {
        logger.error(`could not append to the permission audit log: ${(error as Error).message}`);
      }
    });

    kernel.hooks.commands.tap('permissions', (registry) => registry.addCli(permissionsCommand(kernel)));
  },
});
