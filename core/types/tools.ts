import type { ImagePart, TextPart, ToolCallPart } from './messages.js';
import type { Json, JsonSchema } from './json-schema.js';

/** The resources one tool call reads and writes; the scheduler runs calls whose sets do not conflict together. */
export interface LockSet {
  /** Resource keys read: paths (absolute or relative to the project root; the scheduler resolves them, symlinks too), `@name` for a resource that is not a file, or `*` for everything. */
  reads: string[];
  /** Resource keys written, in the same form as `reads`. */
  writes: string[];
}

/** What a lock-set function may consult: where the call runs. */
export interface LockContext {
  /** The project root (symlinks resolved). */
  projectRoot: string;
  /** The directory relative paths are taken from. */
  cwd: string;
}

/**
 * What a tool does, for the permission engine: rule patterns like `Edit(src/**)` match on it.
 * `state` changes only the agent's own working state (its plan), nothing on the machine.
 */
export type ToolCategory = 'read' | 'edit' | 'execute' | 'network' | 'state' | 'other';

/**
 * Hints the permission engine uses to judge a call without knowing the tool by name. The paths a
 * call touches are not here: they come from the tool's lock set (`access`), declared once.
 */
export interface ToolRisk<I = Record<string, unknown>> {
  /** What kind of action the tool takes; rules and modes judge by it. */
  category: ToolCategory;
  /** The shell command the call runs, for tools that run one: the engine parses it for what it touches, which accounts for a `*` in the lock set. */
  command?: (input: I) => string | undefined;
}

/** Model spending a tool did on its caller's behalf (a sub-agent's requests): it counts against the caller's budget. */
export interface Spent {
  /** Tokens of every kind (input, output, cache read and write). */
  tokens: number;
  /** US dollars, where prices are known (0 otherwise). */
  costUsd: number;
}

/**
 * The outcome of a tool call as the model will see it. A failure is a result with `isError`, never a throw.
 * A tool that spends model tokens for its caller (a sub-agent) reports it as `metadata.spent` (a `Spent`),
 * and the caller's `limits.maxTokens` / `limits.maxCostUsd` count it.
 */
export interface ToolResult {
  /** What the model sees: text, or images for providers that accept them. */
  content: Array<TextPart | ImagePart>;
  /** The call failed; `content` says why and what to do instead. */
  isError?: boolean;
  /** Structured facts for the UI, audit log and later tool calls (line counts, exit codes, checksums, diffs). */
  metadata?: { [key: string]: Json };
}

/** The plain data a worker receives: it crosses a thread boundary, so nothing here may be a class or function. */
export interface WorkerTask {
  /** The tool's name. */
  tool: string;
  /** The call id. */
  callId: string;
  /** The validated input (after `beforeToolCall`). */
  input: Record<string, unknown>;
  /** The project root, symlinks resolved. */
  projectRoot: string;
  /** The directory relative paths are taken from. */
  cwd: string;
  /** Per-tool options from the plugin that registered it. */
  options: { [key: string]: Json };
  /** Main-thread state for this call from the definition's `prepare` (e.g. the checksum the model last saw). */
  state: { [key: string]: Json };
  /** The time limit the runtime enforces for this call. */
  timeoutMs: number;
  /** The session, when one is open. */
  sessionId?: string;
  /** The sub-agent making the call; absent for the main agent. */
  agentId?: string;
}

/** What a worker-side tool receives besides its task. */
export interface WorkerContext {
  /** Aborted when the batch is cancelled or the call times out; the tool should stop and return soon after. */
  signal: AbortSignal;
  /** Registers a child process group the runtime kills if the worker has to be torn down. */
  trackProcess(pid: number): void;
}

/** The export a worker module provides for a tool: `run(task, context) → ToolResult`. */
export type WorkerRun = (task: WorkerTask, context: WorkerContext) => Promise<ToolResult>;

/** What `prepare` returns: state for the worker task, or a result that ends the call without running it. */
export type PrepareOutcome = { state?: { [key: string]: Json }; result?: undefined } | { result: ToolResult; state?: undefined };

/** How a tool's results may be reused: only calls that write nothing are cached, and file changes under what they read invalidate them. */
export interface ToolCachePolicy {
  /** Most results kept. */
  max: number;
  /** How long a result stays valid. */
  ttlMs: number;
}

/** What a main-thread tool handler receives besides its input. */
export interface ToolContext {
  /** The call id. */
  callId: string;
  /** The project root (symlinks resolved). */
  projectRoot: string;
  /** The directory relative paths are taken from. */
  cwd: string;
  /** Aborted when the batch is cancelled or the call times out; its reason is an Error whose message says which (`aborted`, `timeout`). */
  signal: AbortSignal;
  /** The session, when one is open. */
  sessionId?: string;
  /** The sub-agent making the call, when it is not the main agent. */
  agentId?: string;
  /** The caller's permission mode, for a tool that starts agents (Task) to pass on. */
  mode?: import('./permission.js').PermissionMode;
  /** The caller's model, for a tool that starts agents to pass on. */
  model?: string;
  /** The caller's tool filter, for a tool that starts agents to pass on (a sub-agent never sees more). */
  toolFilter?: (name: string) => boolean;
}

/** How a tool is implemented: in a piscina worker (file URL of its module) or on the main thread. */
export type ToolImplementation<I> =
  | {
      /** File URL of the module the worker imports, e.g. `new URL('./read.worker.js', import.meta.url).href`. */
      module: string;
      /** The export to call as `run(task) → ToolResult`; default `run`. */
      export?: string;
      /** Plain data handed to every task of this tool. */
      options?: { [key: string]: Json };
      /**
       * True for a call too small to deserve a thread hop (a Read of a few KB): it runs on the main
       * thread, the same module, export and task, while the pool's thread (if any) does the rest.
       * Only for quick, bounded work that never blocks: such a call cannot be terminated. A throw is false.
       */
      inline?: (input: I, context: ToolContext) => boolean;
      handler?: undefined;
    }
  | {
      /** A main-thread handler, for tools whose state lives in the kernel (todos, sub-agents, MCP). */
      handler: (input: I, context: ToolContext) => Promise<ToolResult>;
      module?: undefined;
      inline?: undefined;
    };

/** A tool, as a plugin registers it. Built-in, MCP and third-party tools all use this shape. */
export type ToolDefinition<I = Record<string, unknown>> = {
  /** Must match `^[a-zA-Z0-9_-]{1,64}$` (both providers' rule). */
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /**
   * What a call reads and writes, declared once: the scheduler locks it and the permission engine
   * judges its paths (see PermissionRequest.paths). A function of the input returns the keys as the
   * model gave them (paths absolute or relative to the project root, `@name` for a resource that is
   * not a file, `*` for everything); `read` / `write` read / write everything.
   */
  access: 'read' | 'write' | ((input: I, context: LockContext) => LockSet);
  /** What kind of action the tool takes, and the command it runs. */
  risk: ToolRisk<I>;
  /** Time limit for one call (a number, or derived from the input); the runner aborts past it. Default 2 minutes. */
  timeoutMs?: number | ((input: I) => number);
  /** One line for the UI: the key argument ("src/a.ts", "npm test"). */
  summarize?: (input: I) => string;
  /** Main-thread step run once the call's locks are held: state for the worker task, or a result that ends the call. */
  prepare?: (input: I, context: ToolContext) => PrepareOutcome | undefined;
  /** Main-thread step that sees each result before `afterToolCall` (update per-session state from its metadata). */
  settle?: (result: ToolResult, input: I, context: ToolContext) => void;
  /** Reuse results of read-only calls until a file they read changes. */
  cache?: ToolCachePolicy;
  /** The plugin that registered the tool (filled in by the registry). */
  plugin?: string;
} & ToolImplementation<I>;

/** A tool call on its way through the pipeline: the model's call plus where it came from. */
export interface ToolCallRequest {
  /** The call as the model made it. */
  call: ToolCallPart;
  /** The sub-agent making the call, when it is not the main agent. */
  agentId?: string;
}

/** The registry of tools on a kernel instance. */
export interface ToolRegistry {
  /** Adds a tool; a name already registered is an error naming both plugins. `I` is the input its schema admits, typed for `access`, `risk` and the rest (inferred from them, else `any`). */
  register<I = any>(definition: ToolDefinition<I>): void;
  /** Removes a tool (MCP servers going away); false when there was none. */
  unregister(name: string): boolean;
  /** The tool of that name, if registered. */
  get(name: string): ToolDefinition<any> | undefined;
  /** All tools, sorted by name so the prompt stays byte-stable. */
  list(): ToolDefinition<any>[];
}

/** Where a batch of tool calls runs and under which rules. */
export interface ToolBatchContext {
  /** The permission mode in force for this batch. */
  mode: import('./permission.js').PermissionMode;
  /** Cancels the batch: running calls are aborted, waiting ones never start. */
  signal: AbortSignal;
  /** The model turn the calls belong to. */
  turn: number;
  /** The session, when one is open. */
  sessionId?: string;
  /** The sub-agent making the calls, when it is not the main agent. */
  agentId?: string;
  /** For a sub-agent: the tool call that started it (carried on the batch's events). */
  parentCallId?: string;
  /** The model of the agent making the calls (passed on to tools that start agents). */
  model?: string;
  /** Restricts which tools may run (sub-agent subsets, --allowed-tools); others get an error result. */
  toolFilter?: (name: string) => boolean;
}

/** Change notifications for the project's files: our own writes at once, everyone else's through a watcher. */
export interface ProjectFiles {
  /** Calls `listener` with changed absolute paths (`*`: anything may have changed). Returns an unsubscribe function. */
  onChange(listener: (paths: string[]) => void): () => void;
  /** Reports changes we made (a tool's write); listeners hear of them before the call's result returns. */
  changed(paths: string[]): void;
  /**
   * Starts watching what `paths` need (a folder's whole tree; a file's folder) unless a watch
   * covers them already; true once every one is covered by a ready watch, so a cache may trust the
   * absence of change events for them. Nothing is watched until a cache asks; false for paths that
   * are missing or not watched (see `watches`).
   */
  watch(paths: string[]): boolean;
  /** Like `watch` but starts nothing: true when ready watches cover every path now. */
  watching(paths: string[]): boolean;
  /** The watches asked for so far (for diagnostics and tests). */
  watched(): { folder: string; deep: boolean; ready: boolean }[];
  /** True when changes to `path` are reported (inside the project, not .git, node_modules or .gitignored). */
  watches(path: string): boolean;
}
