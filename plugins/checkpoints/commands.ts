import { lazyImport, type CliCommand, type Kernel, type SlashCommand } from '../../core/index.js';

/** The rewind itself (records, blobs, restore), imported when `/rewind` or `sessions rewind` runs. */
const rewindBodies = lazyImport('checkpoints', 'rewind commands', () => import('./rewind-run.js'));

/** `/rewind [n] [code|conversation|both] [force]` on the open session. */
export function rewindSlash(kernel: Kernel, flush: () => Promise<void>): SlashCommand {
  return {
    name: 'rewind',
    description: 'Go back to before a prompt: restore the files, the conversation, or both (Esc Esc)',
    usage: '[n] [code|conversation|both] [force]',
    run: async (args, context) => (await rewindBodies()).runRewindSlash(kernel, flush, args, context),
  };
}

/** `assistant sessions rewind <id> [n] [--code|--conversation|--both] [--force]`: lists the checkpoints without `n`. */
export function rewindCli(kernel: Kernel): CliCommand {
  return {
    name: 'sessions',
    description: 'list, inspect, export and remove stored sessions',
    subcommands: [
      {
        name: 'rewind',
        description: "restore a session's files and/or conversation to before prompt n (without n: list its checkpoints)",
        arguments: '<id> [n]',
        options: [
          { flags: '--code', description: 'restore the files only' },
          { flags: '--conversation', description: 'restore the conversation only' },
          { flags: '--both', description: 'restore both (the default)' },
          { flags: '--force', description: 'also overwrite files changed after the agent last wrote them' },
        ],
        action: async (words, opts) => (await rewindBodies()).runRewindCli(kernel, words, opts),
      },
    ],
  };
}
