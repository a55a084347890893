import { definePlugin, messageText, Stage } from '@assistant-cli/assistant';
import { guardedTarget } from './targets.js';

/** Options, from `migrationGuard` in .assistantrc (or the plugin's entry in `plugins`). */
export interface MigrationGuardOptions {
  /** Folder names that hold migrations, anywhere in the project (default `["migrations"]`). */
  directories?: string[];
  /** The word the user's prompt must contain to unlock them (default `migration`, any case, also `migrations`). */
  keyword?: string;
  /** Also deny shell commands that mention a guarded folder (default true). */
  guardShell?: boolean;
}

/**
 * A policy layer: no edit under a `migrations/` folder unless the user's latest prompt mentions a
 * migration. It runs before the project's own rules (`Stage.POLICY - 10`), so neither an allow rule
 * nor a permission mode (not even bypass) lets an unrelated task rewrite a migration. When the
 * prompt does mention one it abstains, and the normal policy decides as usual.
 */
export default definePlugin<MigrationGuardOptions>({
  name: 'migration-guard',
  version: '0.1.0',
  kernelApi: '^2.0.0',
  configKey: 'migrationGuard',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      directories: { type: 'array', items: { type: 'string', pattern: '^[^/\\\\]+$' }, minItems: 1, default: ['migrations'] },
      keyword: { type: 'string', minLength: 3, default: 'migration' },
      guardShell: { type: 'boolean', default: true },
    },
  },
  apply(kernel, options) {
    const directories = options.directories ?? ['migrations'];
    const keyword = new RegExp(`\\b${(options.keyword ?? 'migration').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i');
    /** Per session: did the user's latest prompt mention a migration? */
    const unlocked = new Map<string | undefined, boolean>();

    // Last, so it reads the prompt as every other tap left it. Sub-agent prompts are written by
    // the model, not the user: they never unlock anything.
    kernel.hooks.userPrompt.tapPromise({ name: 'migration-guard', stage: Stage.LAST }, async (message, turn) => {
      if (!turn.agentId) unlocked.set(turn.sessionId, keyword.test(messageText(message)));
      return message;
    });

    kernel.hooks.permission.tapPromise({ name: 'migration-guard', stage: Stage.POLICY - 10 }, async (request) => {
      if (unlocked.get(request.sessionId)) return undefined;
      const target = guardedTarget(request, directories, options.guardShell ?? true);
      if (!target) return undefined;
      return {
        behavior: 'deny',
        layer: 'migration-guard',
        reason:
          `${target.why}, and migrations are only changed when the user's prompt asks for a migration; ` +
          'leave it as it is, or ask the user to confirm in a new prompt',
      };
    });
  },
});
