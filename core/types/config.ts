import type { PermissionMode } from './permission.js';

/** A `plugins:` entry: a package name or path, optionally with options, or `false` to disable a plugin by name. */
export type PluginEntry = string | [string, Record<string, unknown> | false];

/** Loop limits; each is reported clearly when hit. */
export interface LimitsConfig {
  /** Model turns one prompt may take. */
  maxTurns?: number;
  /** Consecutive failing tool calls before the loop stops and asks the user. */
  maxToolFailures?: number;
  /** The same tool call this many times in a row injects a "you seem stuck" note. */
  repeatedCallLimit?: number;
  /** Stop when the prompt has used this many tokens (input + output). */
  maxTokens?: number;
  /** Stop when the prompt has cost this many US dollars. */
  maxCostUsd?: number;
}

/**
 * How tools that run commands confine them (an OS sandbox such as bubblewrap on Linux). A string
 * is short for `{ mode }`. `auto` sandboxes where the OS allows it, `required` refuses to run a
 * command unsandboxed, `off` never sandboxes.
 */
export type SandboxConfig =
  | 'auto'
  | 'required'
  | 'off'
  | {
      mode?: 'auto' | 'required' | 'off';
      /** Let sandboxed commands reach the network (default false). */
      network?: boolean;
      /** More paths commands may write, besides the project and the temp directory (`~/` allowed). */
      writable?: string[];
    };

/** The configuration, as merged from every layer (see docs/configuration.md). */
export interface AssistantConfig {
  /** Config files or packages this one builds on (lowest first). */
  extends?: string | string[];
  /** Plugins to load besides the built-ins, or built-ins to disable (`["name", false]`). */
  plugins?: PluginEntry[];
  /** The model provider: `name`, `model`, and the provider plugin's own options. */
  provider?: { name?: string; model?: string; [option: string]: unknown };
  /** The permission policy: `mode`, `allow` / `ask` / `deny` rules, and more. */
  permissions?: { mode?: PermissionMode; [option: string]: unknown };
  /** The context strategy (`strategy`) and each strategy's options. */
  context?: { strategy?: string; [option: string]: unknown };
  /** The session store (`store`) and its options. */
  persistence?: { store?: string; [option: string]: unknown };
  /** Limits of one prompt's work. */
  limits?: LimitsConfig;
  /** The OS sandbox for shell commands. */
  sandbox?: SandboxConfig;
  /** Model prices by provider, then model pattern, in US dollars per million tokens (defaults: config/pricing.json). */
  pricing?: Record<string, Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number }>>;
  /** Keys owned by plugins (`configKey`), validated by their schemas. */
  [key: string]: unknown;
}

/** A plugin entry after merging: where it came from and how to load it. */
export interface ResolvedPluginEntry {
  /** Package name or path as written. */
  spec: string;
  /** Options given in the entry. */
  options: Record<string, unknown>;
  /** Directory relative paths are resolved from (package names: the project's directory first, then this). */
  baseDir: string;
  /** The file (or `defaults` / `flags`) that listed it. */
  source: string;
}

/**
 * Whether the project's own settings that widen what the agent may do apply. Until the user trusts
 * a project, those settings are ignored; narrowing ones always apply.
 */
export interface ProjectTrust {
  /** The widening settings apply: the user trusted exactly these (or the project has none). */
  trusted: boolean;
  /** What was ignored because the project is not trusted, for people: `.assistantrc /permissions/allow`. */
  ignored: string[];
  /** Project files plugins read themselves (`.mcp.json`), relative to the root → sha256 of the content trusted; a file not listed, or changed since, is not trusted. */
  files: Record<string, string>;
  /** The project root trust is recorded for (symlinks resolved). */
  root: string;
}

/** The merged configuration plus where each value came from. */
export interface ResolvedConfig {
  /** The merged values. */
  values: AssistantConfig;
  /** The plugin entries, in the order listed (defaults first). */
  plugins: ResolvedPluginEntry[];
  /** Plugin names disabled with `false`. */
  disabled: string[];
  /** For each disabled name, the file (or `defaults` / `flags`) that disabled it. */
  disabledIn?: Record<string, string>;
  /** JSON pointer (`/provider/model`) → the file, `defaults` or `flags` that set it. */
  sources: Record<string, string>;
  /** The config files that were read, lowest layer first. */
  files: string[];
  /** The project config file, when one was found. */
  projectFile?: string;
  /** The project root: the project config's directory, else the git root, else the cwd. */
  projectRoot: string;
  /** The directory the user started in. */
  cwd: string;
  /** The project's trust, when it was checked (the CLI always checks; absent for embedders that did not ask). */
  trust?: ProjectTrust;
}
