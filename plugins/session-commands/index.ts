import { definePlugin, formatError, isAssistantError, lazyImport, type Kernel, type SlashCommandContext } from '../../core/index.js';
import type { AgentRunner } from '../../core/kits/agent/index.js';
import { sessionsCommand } from './sessions-cli.js';

/** `/sessions` and `/resume`, imported when one of them runs. */
const resume = lazyImport('session-commands', '/resume', () => import('./resume.js'));

/** How many sessions `/sessions` lists. */
const LIST_LIMIT = 15;

/** The switch the interactive UI offers slash commands (`context.ui.switchRunner`). */
type SwitchRunner = (runner: AgentRunner) => void;

/**
 * Stored sessions from the shell and the prompt: `assistant sessions list | show | export | delete |
 * prune | audit`, and `/sessions` and `/resume <id>` (continue one in the running UI), the interactive
 * counterparts of `assistant sessions list` and `--resume`.
 */
export default definePlugin({
  name: 'session-commands',
  version: '1.0.0',
  apply(kernel) {
    kernel.hooks.commands.tap('session-commands', (registry) => {
      registry.addCli(sessionsCommand(kernel));
      registry.addSlash({
        name: 'sessions',
        description: "This project's recent sessions; continue one with /resume <id>",
        run: async (_args, context) => (await resume()).formatSessionList(await kernel.store().list({ projectRoot: kernel.projectRoot, limit: LIST_LIMIT }), context.sessionId),
      });
      registry.addSlash({
        name: 'resume',
        description: 'Continue a stored session of this project (an id prefix is enough)',
        usage: '<id>',
        run: (args, context) => runResume(kernel, args.trim(), context),
      });
    });
  },
});

async function runResume(kernel: Kernel, prefix: string, context: SlashCommandContext): Promise<string> {
  const switchRunner = context.ui?.switchRunner as SwitchRunner | undefined;
  if (typeof switchRunner !== 'function') return '/resume works in the interactive UI; from a shell run: assistant --resume <id>';
  const { formatSessionList, resumeSession } = await resume();
  if (!prefix) return formatSessionList(await kernel.store().list({ projectRoot: kernel.projectRoot, limit: LIST_LIMIT }), context.sessionId);
  try {
    return await resumeSession(kernel, prefix, context, switchRunner);
  } catch (error) {
    if (isAssistantError(error)) return formatError(error);
    throw error;
  }
}
