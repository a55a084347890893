import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { AssistantError, definePlugin, lazyImport, Stage, type SlashCommandContext } from '../../core/index.js';
import { runFromFlags, type RunFlags } from '../../core/kits/agent/index.js';
import { createSecretMatcher, secretOptionsOf } from '../../core/kits/fs/index.js';
import { initWriteDecision, type InitWrite } from './write-allowance.js';

/** The manifest scan and the prompt's text, imported when `/init` or `assistant init` runs. */
const promptParts = lazyImport('project-init', 'init prompt', () => import('./prompt-parts.js'));

const exists = (path: string) => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** What the terminal shows for `/init`; the model gets the whole prompt in its place. */
const shownPrompt = (extra: string) => `Write AGENTS.md for this project (/init${extra.trim() ? ` ${extra.trim()}` : ''})`;

/**
 * `/init` and `assistant init`: the model writes the project's AGENTS.md (commands, layout,
 * conventions) from the project map and the manifest, build, CI and instruction files, through the
 * normal agent loop, so the Write goes through the permission policy (AGENTS.md is a memory file:
 * in the terminal the user approves it, and sees the diff when one exists).
 */
export default definePlugin({
  name: 'project-init',
  version: '1.0.0',
  apply(kernel) {
    const target = () => join(kernel.projectRoot, 'AGENTS.md');
    const isSecret = createSecretMatcher(secretOptionsOf(kernel.config as Record<string, unknown>));
    const prompt = async (extra: string) => {
      const { initPrompt, projectFiles } = await promptParts();
      return initPrompt({ target: target(), exists: exists(target()), files: projectFiles(kernel.projectRoot, isSecret), extra });
    };

    // Headless `assistant init` only: its one Write of AGENTS.md needs no one to approve it.
    let allowed: InitWrite | undefined;
    kernel.hooks.permission.tapPromise({ name: 'project-init', stage: Stage.TOOL_POLICY }, async (request) =>
      allowed ? initWriteDecision(request, target(), allowed) : undefined,
    );

    // `/init` shows a one-line prompt and sends the whole one: swapped in last, after other taps
    // (the terminal's @-mentions) saw only the short text, never the manifests' `@scope/name`s.
    const pending = new Map<string, string>();
    kernel.hooks.userPrompt.tapPromise({ name: 'project-init', stage: Stage.LAST }, async (message) => {
      const text = message.content.length === 1 && message.content[0]!.type === 'text' ? message.content[0]!.text : undefined;
      const full = text === undefined ? undefined : pending.get(text);
      if (full === undefined) return message;
      pending.delete(text!);
      return { ...message, content: [{ type: 'text', text: full }] };
    });

    kernel.hooks.commands.tap('project-init', (registry) => {
      registry.addSlash({
        name: 'init',
        description: 'write AGENTS.md for this project (commands, layout, conventions) with the model',
        usage: '[what to focus on]',
        async run(args: string, context: SlashCommandContext) {
          const submit = context.ui?.submit as ((text: string) => void) | undefined;
          if (typeof submit !== 'function') return 'run /init in the interactive terminal, or `assistant init` headless';
          const shown = shownPrompt(args);
          pending.set(shown, await prompt(args));
          submit(shown);
          return undefined;
        },
      });
      registry.addCli({
        name: 'init',
        description: 'write AGENTS.md for this project with the model (headless): commands, layout, conventions',
        arguments: '[focus...]',
        options: [{ flags: '--force', description: 'let the agent rewrite an existing AGENTS.md without asking' }],
        async action(args, options) {
          const kind: InitWrite = exists(target()) ? 'overwrite' : 'create';
          if (kind === 'overwrite' && !options.force)
            throw new AssistantError(
              'ASSISTANT_USAGE',
              `${target()} already exists; update it with /init in the interactive terminal (you approve the change), or run assistant init --force to let the agent rewrite it`,
            );
          allowed = kind;
          try {
            return await runFromFlags(kernel, await prompt(args.join(' ')), { ...(options as RunFlags), print: true });
          } finally {
            allowed = undefined;
          }
        },
      });
    });
  },
});
