import type { InteractiveSession, Kernel } from '../../core/index.js';

/** The plugin's options that shape the UI. */
export interface UiOptions {
  showThinking?: boolean;
  historySize?: number;
  /** A command whose first line of output is shown under the status line (`ui.statusLine`). */
  statusLine?: { type?: 'command'; command: string; timeoutMs?: number };
}

/** What the app runs on: the kernel, the session's runner, and the terminal's streams. */
export interface AppContext {
  kernel: Kernel;
  session: InteractiveSession;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  options: UiOptions;
  env?: NodeJS.ProcessEnv;
}
