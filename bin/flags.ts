import type { Command } from 'commander';
import { collectRules, type ConfigFlags } from '../config/flags-layer.js';

/** The flags every command understands: where to start, which config, and the flags that set config values. */
export interface CommonFlags extends ConfigFlags {
  cwd?: string;
  config?: string;
  debug?: boolean;
  /** `--trust-project`: trust the project's current settings (and record that) before loading them. */
  trustProject?: boolean;
}

const VALUES = new Map<string, 'cwd' | 'config' | 'model' | 'provider' | 'permissionMode' | 'systemPrompt' | 'appendSystemPrompt'>([
  ['--cwd', 'cwd'], ['--config', 'config'], ['--model', 'model'], ['--provider', 'provider'], ['--permission-mode', 'permissionMode'],
  ['--system-prompt', 'systemPrompt'], ['--append-system-prompt', 'appendSystemPrompt'],
]);
const RULES = new Map<string, 'allowedTools' | 'disallowedTools'>([['--allowed-tools', 'allowedTools'], ['--disallowed-tools', 'disallowedTools']]);
const SWITCHES = new Map<string, 'debug' | 'record' | 'trustProject'>([['--debug', 'debug'], ['--record', 'record'], ['--trust-project', 'trustProject']]);

/** Reads the few flags needed before commander runs (which config to load, whether to debug) and the subcommand. */
export function prescan(argv: string[]): { flags: CommonFlags; command?: string; print: boolean; forcedPrompt: boolean } {
  const flags: CommonFlags = {};
  let command: string | undefined;
  let print = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [name, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (VALUES.has(name)) (flags as Record<string, unknown>)[VALUES.get(name)!] = value(); // the mode is checked by the config schema
    else if (RULES.has(name)) flags[RULES.get(name)!] = collectRules(value() ?? '', flags[RULES.get(name)!] ?? []);
    else if (SWITCHES.has(name)) flags[SWITCHES.get(name)!] = true;
    // Variadic like commander's `<dir...>`: every following word up to the next option.
    else if (name === '--add-dir') {
      const dirs = inline !== undefined ? [inline] : [];
      while (inline === undefined && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) dirs.push(argv[++i]!);
      flags.addDir = [...(flags.addDir ?? []), ...dirs];
    }
    else if (name === '-p' || name === '--print') print = true;
    // Words after `--` are a prompt, whatever they look like.
    else if (name === '--') return { flags, command, print, forcedPrompt: command === undefined };
    else if (name === '--output-format' || name === '--max-turns') value(); // not needed yet, but never the subcommand
    else if (!name.startsWith('-') && command === undefined) command = name;
  }
  return { flags, command, print, forcedPrompt: false };
}

/** Adds the options every command shares. */
export function addCommonOptions(command: Command): Command {
  return command
    .option('--cwd <dir>', 'run as if started in <dir>')
    .option('--config <file>', 'use this config file instead of searching for .assistantrc')
    .option('--model <model>', 'model to use (overrides provider.model)')
    .option('--provider <name>', 'provider to use (overrides provider.name), e.g. anthropic or openai')
    .option('--system-prompt <text>', 'replace the built-in instructions of the system prompt (@file reads a file); tool, memory and environment sections stay')
    .option('--append-system-prompt <text>', 'append to the instructions of the system prompt (@file reads a file)')
    .option('--add-dir <dir...>', 'more directories the tools may read and write as if inside the project (repeatable)')
    .option('--debug', 'verbose logs on stderr, hook traces and stack traces')
    .option('--trust-project', "trust this project's settings that widen what assistant may do (permission mode, allow rules, sandbox, hooks, MCP servers, plugins), and remember it");
}
