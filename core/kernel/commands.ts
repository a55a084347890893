import { PluginError } from './errors.js';
import type { CliCommand, CommandRegistry, DoctorCheck, SlashCommand } from '../types/commands.js';

const COMMAND_NAME = /^[a-z][a-z0-9_:-]*$/i;

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
    addCli: (command) => add(cli, 'subcommand', command),
    slash: (name) => slash.get(name),
    listSlash: () => [...slash.values()].sort((a, b) => a.name.localeCompare(b.name)),
    listCli: () => [...cli.values()].sort((a, b) => a.name.localeCompare(b.name)),
    addCheck: (check) => void checks.push(check),
    listChecks: () => [...checks],
  };
}
