import type { ShellAnalysis, ShellCommand } from './shell/types.js';

/**
 * A command that is safe on its own: it only reads (or runs the tests), with nothing unexplained
 * about it. With `ignoreWrites`, the files it writes (redirections) are left for the caller to judge.
 */
export function isSafeCommand(command: ShellCommand, trustTests: boolean, ignoreWrites = false): boolean {
  const harmless = command.risk === 'read' || (command.risk === 'test' && trustTests);
  return harmless && !command.concerns.length && (ignoreWrites || !command.writes.length) && !command.writesUnknown && !command.localProgram;
}

/** True when every command of the script is proven to only read (plan mode's test). */
export function isReadOnlyScript(shell: ShellAnalysis): boolean {
  return !shell.concerns.length && shell.commands.every((c) => c.risk === 'read' && isSafeCommand(c, false));
}

/** Why a command is not safe on its own, for people and the model. */
export function whyUnsafe(command: ShellCommand, trustTests: boolean): string | undefined {
  if (isSafeCommand(command, trustTests)) return undefined;
  const text = command.argv.map((a) => a.value ?? '…').join(' ') || 'a redirection';
  if (command.writes.length && (command.risk === 'read' || command.risk === 'test'))
    return `\`${text}\` writes to ${command.writes.map((w) => w.arg.template.replaceAll('\u0000', '…')).join(', ')}`;
  if (command.risk === 'read' || command.risk === 'test') return `\`${text}\`: ${command.concerns[0] ?? command.reason}`;
  return `${command.reason}${command.concerns.length ? ` (${command.concerns[0]})` : ''}`;
}
