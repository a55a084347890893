/**
 * The programmatic API (`@assistant-cli/assistant/sdk`): `query()` runs one prompt in a project, as
 * `assistant -p` would, and yields the same typed events as `--output-format stream-json`, with
 * approvals answered by a callback. It lives in config/ because it loads a project's configuration
 * (core never imports config/); the session driving itself is core/kits/agent's `createSessionDriver`.
 */
import { resolve } from 'node:path';
import { createKernel } from '../core/kernel/kernel.js';
import type { Kernel, Plugin } from '../core/kernel/kernel-types.js';
import { AssistantError } from '../core/kernel/errors.js';
import type { LogLevel } from '../core/kernel/logger.js';
import { setSurface, startDrivenSession, type SessionDriver, type StreamJsonEvent } from '../core/kits/agent/index.js';
import type { AssistantConfig, PluginEntry } from '../core/types/config.js';
import type { ApprovalAnswer, ApprovalRequest, PermissionMode } from '../core/types/permission.js';
import { flagsLayer } from './flags-layer.js';
import { loadConfig } from './load.js';
import { askEach, type CanUseTool } from './sdk-approvals.js';

export type { StreamJsonEvent } from '../core/kits/agent/index.js';
export type { CanUseTool, ToolApproval, ToolApprovalAnswer } from './sdk-approvals.js';

/** What a query may change about the run, over the project's configuration. */
export interface QueryOptions {
  /** The model (`--model`). */
  model?: string;
  /** The provider by name (`--provider`), e.g. `anthropic` or `openai`. */
  provider?: string;
  /** The permission mode (`--permission-mode`). */
  permissionMode?: PermissionMode;
  /** Permission rules to allow without asking (`--allowed-tools`), e.g. `Bash(npm test)`. */
  allowedTools?: string[];
  /** Permission rules to deny (`--disallowed-tools`). */
  disallowedTools?: string[];
  /** More `.assistantrc` plugin entries (names, paths, `[name, options]`, `[name, false]` to disable one). */
  plugins?: PluginEntry[];
  /** Plugin objects made in the script (`definePlugin(...)`), applied after the configured ones. */
  extraPlugins?: Plugin<any>[];
  /** Any other configuration values, the highest layer (under the options above). */
  config?: AssistantConfig;
  /** Use this config file instead of searching for `.assistantrc` (`--config`). */
  configFile?: string;
  /** Continue this session (an id or a unique prefix), as `--resume <id>`. */
  resume?: string;
  /** With `resume`: a new session starting from its history (`--fork-session`). */
  forkSession?: boolean;
  /** With `resume`: take the session from the surface holding it (`--take-over`). */
  takeOver?: boolean;
  /** Stop after this many model turns. */
  maxTurns?: number;
  /** Answers calls that need approval; without it they are denied, as in `assistant -p`. */
  canUseTool?: CanUseTool;
  /** Aborts the run (the same as `interrupt()`). */
  signal?: AbortSignal;
  /** Trust the project's settings that widen permissions, and record that (`--trust-project`). Off: they are ignored with a warning. */
  trustProject?: boolean;
  /** Skip the user's global config. */
  noUserConfig?: boolean;
  /** Least severe log level written to stderr (default `warn`). */
  logLevel?: LogLevel;
}

/** A query: one prompt in the project at `cwd`. */
export interface QueryParams {
  /** What to do, as typed after `assistant -p`. */
  prompt: string;
  /** The directory to work in (default: the process's). */
  cwd?: string;
  /** What to change about the run (see QueryOptions). */
  options?: QueryOptions;
}

/** The running query: iterate it for its events (the last one is `result`). */
export interface Query extends AsyncIterable<StreamJsonEvent> {
  /** Stops the run: the stream and running tools are aborted, pending approvals denied; the iterator then ends with `result` (`aborted`). */
  interrupt(): void;
  /** The session's id, once it is open (also on every event's `session_id`). */
  readonly sessionId: string | undefined;
}

/** The options that set configuration values, as one layer over the project's files. */
function optionsLayer(options: QueryOptions): AssistantConfig {
  const flags = flagsLayer(options);
  const extra = options.config ?? {};
  const layer: AssistantConfig = { ...extra };
  for (const [key, value] of Object.entries(flags) as [keyof AssistantConfig, unknown][]) {
    const under = extra[key];
    (layer as Record<string, unknown>)[key] = under && typeof under === 'object' && !Array.isArray(under) ? { ...under, ...(value as object) } : value;
  }
  if (options.plugins?.length) layer.plugins = [...(extra.plugins ?? []), ...options.plugins];
  return layer;
}

async function openKernel(cwd: string, options: QueryOptions): Promise<Kernel> {
  const config = await loadConfig({
    cwd,
    configFile: options.configFile,
    flags: optionsLayer(options),
    noUserConfig: options.noUserConfig,
    // A script may run on any checkout (a pull request in CI): the project's widening settings wait for trust, as in the CLI.
    enforceTrust: true,
    grantTrust: options.trustProject,
  });
  if (config.trust?.ignored.length) process.stderr.write(`warning: ignored until the project is trusted (options.trustProject): ${config.trust.ignored.join(', ')}\n`);
  return createKernel({
    config,
    // With a callback there is someone to ask; without one an `ask` is a denial.
    headless: !options.canUseTool,
    logLevel: options.logLevel ?? 'warn',
    checkSelections: true,
    extraPlugins: (options.extraPlugins ?? []).map((plugin) => ({ plugin, options: {}, source: 'query()', listedIn: 'query() options.extraPlugins' })),
  });
}

async function openDriver(kernel: Kernel, options: QueryOptions): Promise<SessionDriver> {
  const canUseTool = options.canUseTool;
  const approve = canUseTool && ((items: ApprovalRequest[], signal: AbortSignal): Promise<ApprovalAnswer[]> => askEach(canUseTool, items, signal));
  return startDrivenSession(kernel, { resume: options.resume, forkSession: options.forkSession, takeOver: options.takeOver, approve });
}

/**
 * Runs `prompt` in the project at `cwd` and yields its events. The configuration is loaded as the
 * CLI loads it (user file, the project's `.assistantrc`, then `options`); the session is stored like
 * any other, so `assistant --resume <id>` continues it. Errors before the run (a bad config, an
 * unknown session) are thrown by the iterator as coded AssistantErrors.
 */
export function query({ prompt, cwd, options = {} }: QueryParams): Query {
  if (typeof prompt !== 'string' || !prompt.trim()) throw new AssistantError('ASSISTANT_USAGE', 'query() needs a prompt: query({ prompt: "fix the failing test" })');
  if (options.maxTurns !== undefined && (!Number.isInteger(options.maxTurns) || options.maxTurns < 1))
    throw new AssistantError('ASSISTANT_USAGE', `options.maxTurns must be a positive integer (got ${options.maxTurns})`);
  let driver: SessionDriver | undefined;
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  if (options.signal?.aborted) interrupt();

  async function* events(): AsyncGenerator<StreamJsonEvent, void, undefined> {
    // The session's lease names the script's process as the SDK's: "sdk on host ... (pid N)".
    setSurface('sdk');
    const kernel = await openKernel(resolve(cwd ?? process.cwd()), options);
    let failed = false;
    try {
      driver = await openDriver(kernel, options);
      yield* driver.stream(prompt, { limits: options.maxTurns ? { maxTurns: options.maxTurns } : undefined }, stop.signal);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', interrupt);
      driver?.close();
      await kernel.shutdown(failed ? 'error' : 'done').catch(() => undefined);
    }
  }

  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    interrupt,
    get sessionId() {
      return driver?.sessionId;
    },
  };
}
