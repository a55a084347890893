import type { Kernel, PermissionMode, Usage } from '../../../core/index.js';
import type { AgentRunner } from '../../../core/kits/agent/index.js';
import type { Style } from '../terminal/style.js';

/** What the built-in slash commands need from the running terminal UI. */
export interface UiHost {
  readonly kernel: Kernel;
  readonly runner: AgentRunner;
  readonly style: Style;
  readonly width: number;
  readonly busy: boolean;
  /** Usage per model seen by this UI (the session total may include earlier, resumed turns). */
  readonly usageByModel: ReadonlyMap<string, Usage>;
  /** The model the next prompt uses. */
  readonly model: string;
  setModel(model: string): void;
  /** Switches the permission mode; returns an error text when the mode is not allowed. */
  setMode(mode: PermissionMode): string | undefined;
  /** Starts a fresh conversation in a new session (the old one stays in the store). */
  newConversation(): Promise<string>;
  clearScreen(): void;
  exit(code?: number): void;
  details(n: number): string[];
}

/** The built-in commands, described without loading their code (it is imported when one runs). */
export const BUILTIN_COMMANDS: Array<{ name: string; description: string; usage?: string; whileBusy: boolean }> = [
  { name: 'help', description: 'Show commands and keys', whileBusy: true },
  { name: 'clear', description: 'Start a new conversation and clear the screen', whileBusy: false },
  { name: 'cost', description: 'Tokens used (in, out, cache read/write) and cost, per model', whileBusy: true },
  { name: 'model', description: 'Show or switch the model for the next prompts', usage: '[name]', whileBusy: true },
  { name: 'mode', description: 'Show or switch the permission mode', usage: '[mode]', whileBusy: true },
  { name: 'permissions', description: 'Permission mode, rules and grants in force', whileBusy: true },
  { name: 'plugins', description: 'Loaded plugins and the hooks they tap', whileBusy: true },
  { name: 'config', description: 'The merged configuration and where each value came from', whileBusy: true },
  { name: 'details', description: 'Input and full output of a tool call (1 = latest; Ctrl+O)', usage: '[n]', whileBusy: true },
  { name: 'exit', description: 'Leave assistant', whileBusy: true },
];
