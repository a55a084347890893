import { AssistantError, formatError, isAssistantError, realPath, type Kernel, type SlashCommand } from '../../core/index.js';
import { addDirectoryWhileRunning, addedDirectoriesOf } from '../../core/kits/fs/index.js';

/**
 * `/add-dir <folder>`: works in another folder for the rest of this run, as `--add-dir` does from
 * the start (the same checks and refusals; its control files protected like the project's). The
 * user types it; the model has no way to run a slash command.
 */
export function addDirCommand(kernel: Kernel): SlashCommand {
  return {
    name: 'add-dir',
    description: 'Let the agent work in another folder for the rest of this run (as --add-dir)',
    usage: '<folder>',
    run(args) {
      const root = realPath(kernel.projectRoot);
      const dir = args.trim();
      if (!dir) {
        const dirs = addedDirectoriesOf(kernel, root);
        return dirs.length ? ['Added folders (the agent works in them as in the project):', ...dirs.map((d) => `  ${d}`)].join('\n') : 'No folders are added. /add-dir <folder> adds one for this run; --add-dir from the start.';
      }
      try {
        const outcome = addDirectoryWhileRunning(kernel, dir, root);
        if ('covered' in outcome) return `${dir} is already ${outcome.covered === root ? 'in the project' : `in the added folder ${outcome.covered}`}; nothing was added.`;
        return `Added ${outcome.added} for this run: the agent reads and edits there as in the project (the same rules and approvals; its config, git hooks and memory files stay protected), @ completes its files, and its memory files apply from the next request.`;
      } catch (error) {
        if (!isAssistantError(error)) throw error;
        // The kit names the config key; here the user typed a command.
        return formatError(new AssistantError(error.code, error.message.replace('permissions.additionalDirectories (from /add-dir): ', '/add-dir '), { cause: error }));
      }
    },
  };
}
