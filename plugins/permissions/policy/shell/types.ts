/** Marks the part of a value that is only known when the shell runs (a variable, a substitution). */
export const DYNAMIC = '\u0000';

/** One shell word after quote removal and the expansions we can do statically. */
export interface Arg {
  /** The literal value, or null when part of it is only known at run time. */
  value: string | null;
  /** The value with DYNAMIC where run-time parts go (`$DIR/x` → `\0/x`). */
  template: string;
  /** Contains unquoted glob characters (`*`, `?`, `[`). */
  glob: boolean;
  /**
   * For a run-time value, a value it may well take that hard blocks must consider: `${X:-/}` may be
   * `/`, `~other` is a home directory.
   */
  worst?: string;
}

/** What a command does, from most to least harmless. */
export type Risk = 'read' | 'test' | 'write' | 'network' | 'exec' | 'unknown';

/** A path a command reads or writes, as written, with the directory it is relative to. */
export interface ShellPath {
  arg: Arg;
  /** The virtual working directory at that point, or null when a `cd` made it unknown. */
  cwd: string | null;
  /** Read recursively (grep -r, cp -r): secrets below a directory count. */
  recursive?: boolean;
  /** The recursive read skips names starting with a dot and symlinks (rg and ag by default). */
  skipHidden?: boolean;
  /** Base-name patterns a recursive read skips (grep --exclude). */
  excludes?: string[];
  /** Only names and sizes are read (ls, du, stat): a glob reaching a secret through a symlink reads nothing secret. */
  metadata?: boolean;
}

/** One simple command of the script, nested ones (substitutions, `sh -c` payloads, `xargs`) included. */
export interface ShellCommand {
  /** The words as written and evaluated. */
  argv: Arg[];
  /** argv without transparent wrappers (`env`, `command`, `timeout 5`, `nice`) and with the name normalized. */
  effective: Arg[];
  /** The normalized command name (basename, backslashes removed), or null when computed at run time. */
  name: string | null;
  risk: Risk;
  /** Why the command has its risk, for people. */
  reason: string;
  reads: ShellPath[];
  writes: ShellPath[];
  /** Writes files we cannot name (make, tar -x, patch). */
  writesUnknown?: boolean;
  /** Things about this command that keep it from being proven safe (dynamic arguments, redirections, ...). */
  concerns: string[];
  /** The virtual working directory the command runs in, or null when a `cd` made it unknown. */
  cwd: string | null;
  /** Inside a substitution, a payload (`sh -c`, `eval`), or run by another command (`xargs`, `find -exec`). */
  nested: boolean;
  /** Prints what the git repository holds, by object or history rather than by a path we can check (git grep, log -p, show, cat-file). */
  readsTracked?: boolean;
  /** The name is a path to a program outside the standard binary directories (`./ls`). */
  localProgram?: boolean;
}

/** Everything the parse tells about one shell command string. */
export interface ShellAnalysis {
  source: string;
  commands: ShellCommand[];
  /** Reasons the command must never run (hard blocks). */
  blocks: string[];
  /** Things not tied to one command that keep the whole from being proven safe (parse errors, unknown constructs). */
  concerns: string[];
}
