import type { Kernel, PermissionMode, SlashCommandContext } from '../../../core/index.js';
import type { AgentRunner } from '../../../core/kits/agent/index.js';
import type { Style } from '../terminal/style.js';
import { sanitize } from '../terminal/width.js';
import { BUILTIN_COMMANDS } from './host.js';

/** What running a slash command needs from the app. */
export interface SlashHost {
  readonly kernel: Kernel;
  readonly style: Style;
  readonly busy: boolean;
  readonly sessionId: string;
  /** Prints text under the command (wrapped to the screen). */
  print(text: string): void;
  /** Prints finished lines. */
  note(lines: string[]): void;
  /** The UI services other plugins' commands may use (`context.ui`). */
  services(): Record<string, unknown>;
}

/**
 * Runs `/name args`: echoes it, refuses unknown commands and (while the agent works) those that
 * need it idle, and prints what the command returns; a throwing command is reported, never fatal.
 */
export async function runSlash(host: SlashHost, name: string, args: string): Promise<void> {
  const { style } = host;
  const command = host.kernel.commands.slash(name);
  host.note(['', style.bold(style.cyan(`/${name}`)) + (args ? ` ${args}` : '')]);
  const builtin = BUILTIN_COMMANDS.find((c) => c.name === name);
  if (!command) return host.note([style.red(`Unknown command /${name}.`) + style.gray(' /help lists the commands; plugins add more.')]);
  if (host.busy && !builtin?.whileBusy) return host.note([style.yellow(`/${name} can run when the agent is idle; press esc to interrupt it first.`)]);
  const context: SlashCommandContext = { print: (text) => host.print(text), sessionId: host.sessionId, ui: host.services() };
  try {
    const output = await command.run(args, context);
    if (typeof output === 'string' && output) host.print(output);
  } catch (error) {
    host.note([style.red(`✗ /${name} failed: ${sanitize(String((error as Error)?.message ?? error))}`)]);
  }
}

/** What the UI lends other plugins' slash commands. */
export interface UiServicesHost {
  readonly runner: AgentRunner;
  readonly width: number;
  readonly style: Style;
  clearScreen(): void;
  newConversation(): Promise<string>;
  switchRunner(runner: AgentRunner): void;
  setMode(mode: PermissionMode): string | undefined;
  submitPrompt(text: string): void;
  showRewound(prompt: string): void;
}

/** The UI services slash commands from other plugins can reach (`context.ui`), documented in docs/usage.md. */
export function uiServices(app: UiServicesHost): Record<string, unknown> {
  return {
    clearScreen: () => app.clearScreen(),
    newConversation: () => app.newConversation(),
    switchRunner: (runner: AgentRunner) => app.switchRunner(runner),
    setMode: (mode: PermissionMode) => app.setMode(mode),
    submit: (text: string) => app.submitPrompt(text),
    showRewound: (prompt: string) => app.showRewound(prompt),
    runner: app.runner,
    width: app.width,
    color: app.style.enabled,
  };
}
