import { Command, CommanderError, Option } from 'commander';
import { AssistantError, formatError, isAssistantError } from '../core/kernel/errors.js';
import type { Kernel } from '../core/kernel/kernel-types.js';
import type { CliCommand } from '../core/types/commands.js';
import { boot, type CommonFlags } from './boot.js';
import { registerConfigCommands } from './commands/config.js';
import { registerPluginsCommand } from './commands/plugins.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { runMain, type RunFlags } from './commands/run.js';
import { registerSessionsCommand } from './commands/sessions.js';
import { registerTrustCommand } from './commands/trust.js';
import { refuseMistypedCommand } from './mistyped-command.js';
import { reportFailure } from './failure.js';

const CORE_COMMANDS = new Set(['config', 'plugins', 'doctor', 'trust', 'help']);
/** Options that take a value, so a pre-scan can skip their values when looking for the subcommand. */
const VALUE_OPTIONS = new Set(['--cwd', '--config', '--model', '--provider', '--permission-mode', '--output-format', '--max-turns', '--allowed-tools', '--disallowed-tools']);

/** Reads the few flags needed before commander runs (which config to load, whether to debug). */
function prescan(argv: string[]): { flags: CommonFlags; command?: string; print: boolean; forcedPrompt: boolean } {
  const flags: CommonFlags = {};
  let command: string | undefined;
  let print = false;
  let forcedPrompt = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--cwd') flags.cwd = value();
    else if (name === '--config') flags.config = value();
    else if (name === '--model') flags.model = value();
    else if (name === '--provider') flags.provider = value();
    else if (name === '--debug') flags.debug = true;
    else if (name === '--permission-mode') flags.permissionMode = value() as CommonFlags['permissionMode'];
    else if (name === '--allowed-tools') flags.allowedTools = collectRules(value() ?? '', flags.allowedTools ?? []);
    else if (name === '--disallowed-tools') flags.disallowedTools = collectRules(value() ?? '', flags.disallowedTools ?? []);
    else if (name === '-p' || name === '--print') print = true;
    else if (name === '--record') flags.record = true;
    else if (name === '--trust-project') flags.trustProject = true;
    else if (name === '--') {
      // Words after `--` are a prompt, whatever they look like.
      forcedPrompt = command === undefined;
      break;
    }
    else if (VALUE_OPTIONS.has(name)) value();
    else if (!name.startsWith('-') && command === undefined) command = name;
  }
  return { flags, command, print, forcedPrompt };
}

/** Splits "Bash(npm test),Edit" on commas outside parentheses and appends to `previous`. */
export function collectRules(value: string, previous: string[]): string[] {
  const out = [...previous];
  let depth = 0;
  let current = '';
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Adds the options every command shares. */
export function addCommonOptions(command: Command): Command {
  return command
    .option('--cwd <dir>', 'run as if started in <dir>')
    .option('--config <file>', 'use this config file instead of searching for .assistantrc')
    .option('--model <model>', 'model to use (overrides provider.model)')
    .option('--provider <name>', 'provider to use (overrides provider.name), e.g. anthropic or openai')
    .option('--debug', 'verbose logs on stderr, hook traces and stack traces')
    .option('--trust-project', "trust this project's settings that widen what assistant may do (permission mode, allow rules, sandbox, hooks, MCP servers, plugins), and remember it");
}

function addPluginCommand(parent: Command, spec: CliCommand, exit: { code: number }): void {
  const command = parent.command(spec.name).description(spec.description);
  if (spec.arguments) command.arguments(spec.arguments);
  for (const option of spec.options ?? []) command.option(option.flags, option.description, option.default as string);
  for (const sub of spec.subcommands ?? []) addPluginCommand(command, sub, exit);
  if (spec.action) {
    command.action(async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const positional = (cmd.processedArgs.flat() as unknown[]).filter((a): a is string => typeof a === "string");
      exit.code = (await spec.action!(positional, cmd.optsWithGlobals())) ?? 0;
    });
  }
}

/** Runs the CLI; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const pre = prescan(argv);
  const debug = pre.flags.debug ?? false;
  const exit = { code: 0 };
  let kernel: Kernel | undefined;
  let bootError: unknown;
  if (!pre.command || !CORE_COMMANDS.has(pre.command)) {
    try {
      const headless = pre.print || !process.stdin.isTTY;
      // Only the interactive session asks about trust; other commands warn.
      // A plugin's subcommand may not need the provider or store (`replay` works offline): only a run checks them at start.
      kernel = await boot(pre.flags, headless, !pre.command && Boolean(process.stderr.isTTY && process.stdout.isTTY), !pre.command);
    } catch (error) {
      bootError = error;
    }
  }

  const program = new Command('assistant')
    .description('A coding agent for the terminal: reads, searches, edits and runs commands to do a task.')
    .version(await readVersion(), '-V, --version')
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
    .option('--record', 'record model requests/responses and tool input/output for `assistant replay`')
    .exitOverride()
    // Usage errors are printed as `ASSISTANT_USAGE: ...` below, like every other error.
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => undefined });
  addCommonOptions(program);
  program.action(async (prompt: string[], flags: RunFlags) => {
    if (!pre.forcedPrompt) refuseMistypedCommand(prompt, program.commands.map((c) => c.name()));
    if (bootError) throw bootError;
    exit.code = await runMain(kernel!, prompt.join(' '), flags);
  });

  registerConfigCommands(program, exit);
  registerPluginsCommand(program, exit);
  registerDoctorCommand(program, exit);
  registerTrustCommand(program, exit);
  registerSessionsCommand(program, exit, () => {
    if (!kernel) throw bootError;
    return kernel;
  });
  if (kernel) {
    kernel.hooks.commands.call(kernel.commands);
    for (const spec of kernel.commands.listCli()) addPluginCommand(program, spec, exit);
  }
  const override = (command: Command) => {
    command.exitOverride();
    command.configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: () => undefined });
    command.commands.forEach(override);
  };
  override(program);

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
      process.stderr.write(`${formatError(usageError(error))}\n(run assistant --help for usage)\n`);
      return 2;
    }
    process.stderr.write(formatError(error, debug) + '\n');
    if (bootError && error === bootError && !debug && !isAssistantError(error)) process.stderr.write('(run with --debug for details)\n');
    exit.code = reportFailure(kernel, error);
    return exit.code;
  } finally {
    await kernel?.shutdown(exit.code === 0 ? 'done' : 'error').catch(() => undefined);
  }
}

/** commander's own message (`error: unknown option '--foo'`) as a coded usage error. */
function usageError(error: CommanderError): AssistantError {
  const message = error.message
    .replace(/^error: /, '')
    .replace(/\s*\(Did you mean (\S+)\?\)/, '; did you mean "$1"?')
    .trim();
  return new AssistantError('ASSISTANT_USAGE', message, { cause: error });
}

async function readVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
