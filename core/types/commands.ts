/** A slash command typed at the interactive prompt, contributed through the `commands` hook. */
export interface SlashCommand {
  /** Without the slash: `cost` for `/cost`. */
  name: string;
  /** One line for `/help`. */
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
  /** E.g. `--json` or `-n, --limit <n>`. */
  flags: string;
  /** One line for `--help`. */
  description: string;
  /** The value when the flag is not given. */
  default?: string | boolean | string[];
  /** The flag must be given (commander's `requiredOption`): a usage error otherwise. */
  required?: boolean;
}

/** A CLI subcommand contributed by a plugin, e.g. `assistant sessions list`. */
export interface CliCommand {
  /** The subcommand's name. */
  name: string;
  /** One line for `--help`. */
  description: string;
  /** Positional arguments in commander's syntax: `<id>`, `[ids...]`. */
  arguments?: string;
  /** Its flags. */
  options?: CliOption[];
  /** Nested subcommands (`assistant sessions list`). */
  subcommands?: CliCommand[];
  /** Returns the process exit code (default 0). Write results to stdout, diagnostics to stderr. */
  action?(args: string[], options: Record<string, unknown>): Promise<number | void> | number | void;
}

/** What a doctor check found. */
export interface DoctorResult {
  /** The check passed. */
  ok: boolean;
  /** One line: what was found and, when not ok, what to do. */
  detail: string;
  /** Not ok means the agent cannot work at all (`assistant doctor` exits 1). */
  fatal?: boolean;
}

/** A check `assistant doctor` runs, contributed by the plugin that knows what to check. */
export interface DoctorCheck {
  /** What is checked, e.g. `sandbox`. */
  name: string;
  /** Runs the check. */
  run(): Promise<DoctorResult> | DoctorResult;
}

/** The registry plugins add their commands to. */
export interface CommandRegistry {
  /** Adds a slash command; a name two plugins contribute is an error naming both. */
  addSlash(command: SlashCommand): void;
  /** Adds a CLI subcommand; a name two plugins contribute is an error naming both. */
  addCli(command: CliCommand): void;
  /** Adds a line to `assistant doctor` (names need not be unique across plugins). */
  addCheck(check: DoctorCheck): void;
  /** Every doctor check, in the order added. */
  listChecks(): DoctorCheck[];
  /** The slash command of that name, if any. */
  slash(name: string): SlashCommand | undefined;
  /** Every slash command, sorted by name. */
  listSlash(): SlashCommand[];
  /** Every CLI subcommand, sorted by name. */
  listCli(): CliCommand[];
}
