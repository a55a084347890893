import { Command, CommanderError, Option } from 'commander';
import { collectRules } from '../config/flags-layer.js';
import { AssistantError, formatError, isAssistantError } from '../core/kernel/errors.js';
import type { Kernel } from '../core/kernel/kernel-types.js';
import type { CliCommand } from '../core/types/commands.js';
import { refuseMistypedCommand, runFromFlags, type RunFlags } from '../core/kits/agent/index.js';
import { boot } from './boot.js';
import { registerConfigCommands } from './commands/config.js';
import { registerTrustCommand } from './commands/trust.js';
import { addCommonOptions, prescan } from './flags.js';
import { reportFailure } from '../core/kernel/failure.js';

/** Subcommands that load the configuration themselves (they must work when it does not load); the others come from plugins. */
const CORE_COMMANDS = new Set(['config', 'trust']);
/** What a command's name looks like (the registry refuses any other): a word with spaces is a prompt. */
const COMMAND_WORD = /^[a-z][a-z0-9_:-]*$/i;

function addPluginCommand(parent: Command, spec: CliCommand, exit: { code: number }): void {
  const command = parent.command(spec.name).description(spec.description);
  if (spec.arguments) command.arguments(spec.arguments);
  for (const o of spec.options ?? []) command[o.required ? 'requiredOption' : 'option'](o.flags, o.description, o.default as string);
  for (const sub of spec.subcommands ?? []) addPluginCommand(command, sub, exit);
  if (spec.action)
    command.action(async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const positional = (cmd.processedArgs.flat() as unknown[]).filter((a): a is string => typeof a === 'string');
      exit.code = (await spec.action!(positional, cmd.optsWithGlobals())) ?? 0;
    });
}

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[], version: string): Promise<number> {
  const pre = prescan(argv);
  const headless = pre.print || !process.stdin.isTTY;
  const exit = { code: 0 };
  let kernel: Kernel | undefined;
  let bootError: unknown;
  if (!pre.command || !CORE_COMMANDS.has(pre.command)) {
    try {
      // Only the interactive session asks about trust; other commands warn.
      // A plugin's subcommand may not need the provider or store (`replay` works offline): only a run checks them at start.
      kernel = await boot(pre.flags, headless, !pre.command && Boolean(process.stderr.isTTY && process.stdout.isTTY), !pre.command);
    } catch (error) {
      bootError = error;
    }
  }

  const program = new Command('assistant')
    .description('A coding agent for the terminal: reads, searches, edits and runs commands to do a task.')
    .version(version, '-V, --version')
    .argument('[prompt...]', 'what to do; starts the interactive prompt when omitted')
    .option('-p, --print', 'answer once without the interactive UI (headless), then exit')
    .addOption(new Option('--permission-mode <mode>', 'permission mode').choices(['default', 'acceptEdits', 'plan', 'bypass']))
    .addOption(new Option('--output-format <format>', 'headless output').choices(['text', 'json', 'stream-json']).default('text'))
    .option('--max-turns <n>', 'stop after this many model turns')
    .option('--allowed-tools <rules>', 'comma-separated permission rules to allow without asking, e.g. "Bash(npm test),Edit" (repeatable)', collectRules, [])
    .option('--disallowed-tools <rules>', 'comma-separated permission rules to deny; bare tool names are also hidden from the model (repeatable)', collectRules, [])
    .option('-c, --continue', "continue this project's most recent session")
    .option('-r, --resume [id]', 'resume a session by id (a prefix is enough); without an id, pick one')
    .option('--fork-session', 'with --continue/--resume: start a new session from its history instead')
    .option('--take-over', 'with --continue/--resume: take the session over from the surface holding it')
    .option('--record', 'record model requests/responses and tool input/output for `assistant replay`');
  addCommonOptions(program);
  // The plugins' slash and CLI commands: made now for the interactive UI (it lists the slash ones), in
  // a headless run only when a word could name a subcommand (each plugin builds its commands: ~0.5 ms).
  let pluginCommands: CliCommand[] | undefined;
  const listPluginCommands = (): CliCommand[] => {
    if (!pluginCommands && kernel) kernel.hooks.commands.call(kernel.commands);
    return (pluginCommands ??= kernel?.commands.listCli() ?? []);
  };
  if (!headless) listPluginCommands();
  const commandNames = () => [...CORE_COMMANDS, ...listPluginCommands().map((spec) => spec.name)];
  program.action(async (prompt: string[], flags: RunFlags) => {
    if (!pre.forcedPrompt) refuseMistypedCommand(prompt, commandNames);
    if (bootError) throw bootError;
    exit.code = await runFromFlags(kernel!, prompt.join(' '), flags);
  });
  // A prompt goes to no subcommand: commander's tree of them (~3 ms to build) is only made when the
  // first word names one, or for help.
  const subcommandWanted = pre.command !== undefined && (pre.command === 'help' || (COMMAND_WORD.test(pre.command) && commandNames().includes(pre.command)));
  if (subcommandWanted || argv.includes('-h') || argv.includes('--help')) {
    // `assistant help [command]`; made only here: commander builds its command on every parse (~0.3 ms).
    program.helpCommand(true);
    registerConfigCommands(program);
    registerTrustCommand(program);
    for (const spec of listPluginCommands()) addPluginCommand(program, spec, exit);
  }
  if (!kernel && bootError) program.addHelpText('after', '\nSubcommands from plugins (sessions, doctor, plugins, ...) are missing: the configuration did not load (assistant config validate says why).');
  // Usage errors are printed as `ASSISTANT_USAGE: ...` below, like every other error.
  const override = (command: Command): void =>
    command.exitOverride().configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => undefined }).commands.forEach(override);
  override(program);

  try {
    // A plugin's subcommand without a kernel: the reason is the boot error, not the subcommand's unknown options.
    if (bootError && pre.command && pre.command !== 'help' && !commandNames().includes(pre.command)) throw bootError;
    await program.parseAsync(argv, { from: 'user' });
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      process.stderr.write(`${formatError(usageError(error))}\n(run assistant --help for usage)\n`);
      return 2;
    }
    process.stderr.write(formatError(error, pre.flags.debug) + '\n');
    if (bootError && error === bootError && !pre.flags.debug && !isAssistantError(error)) process.stderr.write('(run with --debug for details)\n');
    exit.code = reportFailure(kernel, error);
    return exit.code;
  } finally {
    await kernel?.shutdown(exit.code === 0 ? 'done' : 'error').catch(() => undefined);
  }
}

/** commander's own message (`error: unknown option '--foo'`) as a coded usage error. */
const usageError = (error: CommanderError) =>
  new AssistantError('ASSISTANT_USAGE', error.message.replace(/^error: /, '').replace(/\s*\(Did you mean (\S+)\?\)/, '; did you mean "$1"?').trim(), { cause: error });
