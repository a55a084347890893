import { definePlugin, Stage, type SlashCommandContext, type UserMessage } from '../../core/index.js';
import type { TerminalApp } from './app.js';
import type { UiOptions } from './app-context.js';
import { BUILTIN_COMMANDS } from './commands/host.js';

interface Options extends UiOptions {
  /** Largest file an `@path` mention attaches, in bytes (bigger files are cut with a note). */
  mentionMaxBytes?: number;
}

const promptText = (message: UserMessage) => message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

/**
 * The interactive terminal UI: takes over the terminal when `assistant` runs without `-p`, shows
 * the run as it streams, asks for approvals, and offers slash commands and `@file` mentions.
 * Everything heavy is imported when the UI starts, so other commands never pay for it.
 */
export default definePlugin<Options>({
  name: 'ui-terminal',
  version: '1.0.0',
  configKey: 'ui',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      showThinking: { type: 'boolean', description: 'Show thinking in full (dimmed) instead of one folded line' },
      historySize: { type: 'integer', minimum: 0, description: 'Prompts kept in the history per project' },
      mentionMaxBytes: { type: 'integer', minimum: 1, description: 'Largest file an @ mention attaches, in bytes' },
      statusLine: {
        type: 'object',
        additionalProperties: false,
        // No `command` required: a layer may set only the time limit for a command another layer names.
        description: 'A command whose first line of output is shown under the status line (it reads the session facts as JSON on stdin)',
        properties: {
          type: { const: 'command' },
          command: { type: 'string', minLength: 1 },
          timeoutMs: { type: 'integer', minimum: 100, maximum: 60000, description: 'Milliseconds it may run before it is killed (default 2000)' },
        },
      },
    },
  },
  apply(kernel, options, { logger }) {
    let app: TerminalApp | undefined;

    kernel.hooks.interactive.tapPromise({ name: 'ui-terminal', stage: Stage.INTERACTIVE }, async (session) => {
      if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
      const { TerminalApp } = await import('./app.js');
      // Set before start(): a first prompt from the command line starts a run at once.
      app = new TerminalApp({ kernel, session, input: process.stdin, output: process.stdout, options });
      const { watchHandOff } = await import('./hand-off.js');
      const started = app;
      const handOff = watchHandOff(kernel, (code) => started.exit(code));
      try {
        const code = await app.start();
        const notice = handOff.notice();
        if (notice) process.stdout.write(notice);
        return code;
      } finally {
        handOff.stop();
        app = undefined;
      }
    });

    // Observers must never throw: a rendering bug is logged, the run goes on.
    kernel.hooks.event.tap({ name: 'ui-terminal', stage: Stage.INTERACTIVE }, (event) => {
      try {
        app?.onEvent(event);
      } catch (error) {
        logger.error(`rendering an event failed: ${(error as Error)?.stack ?? error}`);
      }
    });

    kernel.hooks.approval.tapPromise({ name: 'ui-terminal', stage: Stage.INTERACTIVE }, async (items) => (app ? app.approve(items) : undefined));

    kernel.hooks.userPrompt.tapPromise('ui-terminal', async (message) => {
      if (message.meta?.origin && message.meta.origin !== 'user') return message;
      const text = promptText(message);
      if (!text.includes('@')) return message;
      const { attachMentions, hasMention } = await import('./mentions.js');
      return hasMention(text) ? attachMentions(kernel, message, options.mentionMaxBytes ?? 256 * 1024) : message;
    });

    // Last, so a plugin that contributes a richer command of the same name (a /cost with prices) wins.
    kernel.hooks.commands.tap({ name: 'ui-terminal', stage: Stage.LAST }, (registry) => {
      for (const command of BUILTIN_COMMANDS) {
        if (registry.slash(command.name)) continue;
        registry.addSlash({
          name: command.name,
          description: command.description,
          usage: command.usage,
          run: (args: string, context: SlashCommandContext) => (app ? app.runBuiltin(command.name, args, context) : `/${command.name} works in the interactive UI`),
        });
      }
    });
  },
});
