import { PluginError } from './errors.js';
import type { CliCommand, CommandRegistry, DoctorCheck, SlashCommand } from '../types/commands.js';

const COMMAND_NAME = /^[a-z][a-z0-9_:-]*$/i;

/** Names in a case-blind order. Not `localeCompare`: its first call builds an ICU collator (~8 ms of start-up). */
const byName = (a: { name: string }, b: { name: string }): number => {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
};

/**
 * Two plugins may each contribute subcommands to one group (`assistant sessions rewind` beside
 * `sessions list`): a name that only groups subcommands (no action of its own) merges; the
 * subcommands themselves must still be unique. True when merged.
 */
function mergeGroups(existing: CliCommand & { plugin?: string }, added: CliCommand, plugin: string | undefined): boolean {
  if (existing.action || added.action || !existing.subcommands || !added.subcommands) return false;
  const taken = new Set(existing.subcommands.map((c) => c.name));
  for (const sub of added.subcommands)
    if (taken.has(sub.name))
      throw new PluginError('ASSISTANT_PLUGIN_INVALID', `subcommand "${existing.name} ${sub.name}" is contributed twice (by "${existing.plugin}" and "${plugin}")`, { plugin });
  existing.subcommands = [...existing.subcommands, ...added.subcommands];
  return true;
}

/** Slash commands and CLI subcommands contributed by plugins. */
export function createCommandRegistry(currentPlugin: () => string | undefined): CommandRegistry {
  const slash = new Map<string, SlashCommand & { plugin?: string }>();
  const cli = new Map<string, CliCommand & { plugin?: string }>();
  const checks: DoctorCheck[] = [];
  const add = <T extends { name: string }>(map: Map<string, T & { plugin?: string }>, kind: string, command: T) => {
    const plugin = currentPlugin();
    if (!COMMAND_NAME.test(command.name))
      throw new PluginError('ASSISTANT_PLUGIN_INVALID', `${kind} "${command.name}" has an invalid name`, { plugin });
    const existing = map.get(command.name);
    if (existing)
      throw new PluginError(
        'ASSISTANT_PLUGIN_INVALID',
        `${kind} "${command.name}" is contributed twice (by "${existing.plugin}" and "${plugin}")`,
        { plugin },
      );
    map.set(command.name, { ...command, plugin });
  };
  return {
    addSlash: (command) => add(slash, 'slash command', command),
    addCli: (command) => {
      const existing = cli.get(command.name);
      if (!existing || !mergeGroups(existing, command, currentPlugin())) add(cli, 'subcommand', command);
    },
    slash: (name) => slash.get(name),
    listSlash: () => [...slash.values()].sort(byName),
    listCli: () => [...cli.values()].sort(byName),
    addCheck: (check) => void checks.push(check),
    listChecks: () => [...checks],
  };
}
