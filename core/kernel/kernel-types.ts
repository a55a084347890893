import type { AssistantError } from './errors.js';
import type { Hooks } from './hooks.js';
import type { Logger } from './logger.js';
import type { ResolvedConfig, AssistantConfig } from '../types/config.js';
import type { ProjectFiles, ToolBatchContext, ToolRegistry } from '../types/tools.js';
import type { ToolCallPart, ToolResultPart } from '../types/messages.js';
import type { CommandRegistry } from '../types/commands.js';
import type { Provider } from '../types/provider.js';
import type { JsonSchema } from '../types/json-schema.js';
import type { SessionState } from '../types/agent.js';
import type { ContextLedger } from '../context/ledger.js';
import type { SessionStore } from '../types/session.js';
import type { MetricsRegistry } from './metrics.js';
import type { ControlFiles } from './control-files.js';
import type { ErrorCodeRegistry, ErrorCodeSpec, ErrorCodeTable } from './error-codes.js';

/** A plugin as it is loaded: what it is, where it came from, and what it tapped. */
export interface LoadedPlugin {
  /** The plugin's name. */
  name: string;
  /** The plugin's own version, or else its package's (package.json) when loaded by package name. */
  version?: string;
  /** Resolved file the plugin was imported from. */
  source: string;
  /** The config file (or `defaults`) that listed it. */
  listedIn: string;
  /** Hook names the plugin tapped, in the order it tapped them. */
  hooks: string[];
}

/** The kernel a plugin's `apply` receives. */
export interface Kernel {
  /** The kernel plugin API version (semver); plugins declare a compatible range in `kernelApi`. */
  readonly apiVersion: string;
  /** The frozen set of typed hooks. */
  readonly hooks: Hooks;
  /** The merged, validated configuration values. */
  readonly config: Readonly<AssistantConfig>;
  /** The full resolved configuration with the origin of every value. */
  readonly resolvedConfig: ResolvedConfig;
  /** The project's root directory (where the project config lives, or the git root, or the cwd). */
  readonly projectRoot: string;
  /** The directory the user started in. */
  readonly cwd: string;
  /** True when no person can answer questions (print mode, CI). */
  readonly headless: boolean;
  /** The tools registered on this kernel; plugins register theirs in `apply`. */
  readonly tools: ToolRegistry;
  /** Change notifications for the project's files (our writes at once, others' via a lazily started watcher). */
  readonly files: ProjectFiles;
  /** Slash commands, CLI subcommands and doctor checks contributed by plugins. */
  readonly commands: CommandRegistry;
  /** Budget accounting: measures requests by part, and keeps every request's usage and cost (`/context`, `/cost`). */
  readonly budget: ContextLedger;
  /** Loaded plugins, in apply order. */
  readonly plugins: readonly LoadedPlugin[];
  /** Every error code this kernel knows (its own and each loaded plugin's `errors`), with its exit status and owner. */
  readonly errorCodes: ErrorCodeRegistry;
  /** The open session, once the CLI (or an embedder) has opened one. */
  session: SessionState | undefined;
  /** Counters and histograms of this run (plugins record; `/stats` and exporters read). */
  readonly metrics: MetricsRegistry;
  /** Files that steer the agent (config, settings, `.mcp.json`, git hooks): the sandbox keeps them read-only, the policy asks before edits. */
  readonly controlFiles: ControlFiles;
  /** Logger for the kernel; plugins get their own via `apply`'s context. */
  readonly logger: Logger;
  /**
   * Runs one turn's tool calls through the single pipeline every call takes (validate →
   * beforeToolCall → permission → approval → scheduler → execute → afterToolCall). Results come
   * back in call order; a failure is an error result, never a throw.
   */
  runToolCalls(calls: ToolCallPart[], context: ToolBatchContext): Promise<ToolResultPart[]>;
  /** The provider the config selects, created on first use. */
  provider(): Provider;
  /**
   * The session store `persistence.store` selects, created on first use (nothing is opened before):
   * the one way to read and write sessions (the open session appends its events to it). Its methods'
   * failures name the store's plugin. ASSISTANT_STORE_UNKNOWN when none is selected or provided.
   */
  store(): SessionStore;
  /**
   * What a run would refuse at start, checked now: a provider, store or context strategy the config
   * names that no loaded plugin provides (one error; several are listed in one ASSISTANT_CONFIG_INVALID).
   * Undefined when all are there. A missing API key is not a config problem and is not reported.
   */
  selectionProblem(): AssistantError | undefined;
  /** Runs the `ready` hook once (registering async tools with it); later calls wait for the first. */
  start(): Promise<void>;
  /** Runs the `shutdown` hook once (when started), then stops the tool pool and file watcher. */
  shutdown(reason?: 'done' | 'signal' | 'error'): Promise<void>;
}

/** What `apply` receives besides the kernel and options. */
export interface PluginContext {
  /** A logger named after the plugin. */
  logger: Logger;
}

/** A plugin: `apply` taps hooks and registers things; anything async happens in a `ready` tap. */
export interface Plugin<Options = Record<string, unknown>> {
  /** Kebab-case, unique: it names taps, logs and errors. */
  name: string;
  /** The plugin's own version, shown by `assistant plugins`. */
  version?: string;
  /** Kernel API range the plugin was built for, e.g. `^2.0.0`. */
  kernelApi?: string;
  /** Names of plugins that must be loaded too (checked, never reordered). */
  requires?: string[];
  /** A top-level config key whose value becomes (part of) this plugin's options, e.g. `permissions`. */
  configKey?: string;
  /** JSON Schema of the options; validated with ajv before `apply`. */
  optionsSchema?: JsonSchema;
  /** The plugin's own error codes (`defineErrorCodes`), registered before any plugin is applied; a code another plugin or the kernel owns is refused. */
  errors?: ErrorCodeTable | Record<string, ErrorCodeSpec>;
  /** Taps hooks and registers tools and commands; runs once, synchronously, when the kernel is created. */
  apply(kernel: Kernel, options: Options, context: PluginContext): void;
}
