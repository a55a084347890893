/** A slash command typed at the interactive prompt, contributed through the `commands` hook. */
export interface SlashCommand {
  /** Without the slash: `cost` for `/cost`. */
  name: string;
  description: string;
  /** Shown in help, e.g. `[focus]`. */
  usage?: string;
  /** Returns text to show the user, or nothing. */
  run(args: string, context: SlashCommandContext): Promise<string | void> | string | void;
}

/** What a slash command can reach. */
export interface SlashCommandContext {
  /** Print a line to the user's terminal. */
  print(text: string): void;
  /** The current session id, when one is open. */
  sessionId?: string;
  /** The UI's own services (clear screen, pick a session, ...), keyed by name. */
  ui?: Record<string, unknown>;
}

/** An option of a CLI subcommand, in commander's flag syntax. */
export interface CliOption {
  flags: string;
  description: string;
  default?: string | boolean | string[];
}

/** A CLI subcommand contributed by a plugin, e.g. `assistant sessions list`. */
export interface CliCommand {
  name: string;
  description: string;
  /** Positional arguments in commander's syntax: `<id>`, `[ids...]`. */
  arguments?: string;
  options?: CliOption[];
  subcommands?: CliCommand[];
  /** Returns the process exit code (default 0). Write results to stdout, diagnostics to stderr. */
  action?(args: string[], options: Record<string, unknown>): Promise<number | void> | number | void;
}

/** What a doctor check found. */
export interface DoctorResult {
  ok: boolean;
  /** One line: what was found and, when not ok, what to do. */
  detail: string;
  /** Not ok means the agent cannot work at all (`assistant doctor` exits 1). */
  fatal?: boolean;
}

/** A check `assistant doctor` runs, contributed by the plugin that knows what to check. */
export interface DoctorCheck {
  name: string;
  run(): Promise<DoctorResult> | DoctorResult;
}

/** The registry plugins add their commands to. */
export interface CommandRegistry {
  addSlash(command: SlashCommand): void;
  addCli(command: CliCommand): void;
  /** Adds a line to `assistant doctor` (names need not be unique across plugins). */
  addCheck(check: DoctorCheck): void;
  listChecks(): DoctorCheck[];
  slash(name: string): SlashCommand | undefined;
  listSlash(): SlashCommand[];
  listCli(): CliCommand[];
}
