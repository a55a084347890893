import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel } from '../kernel/kernel.js';
import { createRunner, openSession, type AgentRunner, type RunOptions, type AgentLoopResult, type SessionState } from '../kits/agent/index.js';
import { buildContextView } from '../kits/context/index.js';
import { decidePermission, permissionRequestFor } from '../tools/permission.js';
import { ConfigError } from '../kernel/errors.js';
import type { Kernel, Plugin } from '../kernel/kernel-types.js';
import type { LogLevel } from '../kernel/logger.js';
import type { AssistantConfig, PluginEntry, ResolvedConfig } from '../types/config.js';
import type { ContextReason, ContextView } from '../types/context.js';
import type { Message, ToolCallPart, ToolResultPart } from '../types/messages.js';
import type { PermissionDecision, PermissionMode } from '../types/permission.js';
import { startFakeLlm, type FakeLlm } from './fake-llm/server.js';
import type { Fixture } from './fake-llm/script.js';
import { recordHooks, type HookRecorder } from './hook-recorder.js';
import { createTempProject, type TempProject } from './project.js';

/** A plugin for the test kernel: a plugin object or a `.assistantrc`-style entry (package name or path), each optionally with options. */
export type PluginUnderTest = Plugin<any> | [Plugin<any>, Record<string, unknown>] | string | [string, Record<string, unknown>];

/** How to build a test kernel. */
export interface TestKernelOptions {
  /** The plugins under test. Objects are applied after the configured plugins, exactly as the loader applies any plugin (options validated, `kernelApi` checked). */
  plugins?: PluginUnderTest[];
  /** Which built-in plugins load: `true` (default) every default one, as in a user's project; `false` none; or a list of names. */
  builtins?: boolean | string[];
  /** Files of the temp project (path → content). */
  files?: Record<string, string>;
  /** The project's `.assistantrc` values, written to `.assistantrc.json` in the temp project. */
  config?: AssistantConfig;
  /**
   * The scripted model: a fixture (the kit starts a fake LLM server for it and stops it on close)
   * or a server you started. Selects the built-in provider of `wire` pointed at it.
   */
  model?: Fixture | FakeLlm;
  /** The wire format the scripted model speaks: `anthropic` (default) or `openai`. */
  wire?: 'anthropic' | 'openai';
  /** No person can answer questions: `ask` decisions become denials (default true). */
  headless?: boolean;
  /** The permission mode of the session and of tool calls (default: the config's, else `default`). */
  mode?: PermissionMode;
  /** Kernel log level (default `silent`). */
  logLevel?: LogLevel;
  /** Keep the temp project after `close()` (to inspect it). */
  keepProject?: boolean;
}

/** What `callTool` and `callTools` take: a tool call, with a fresh id when none is given. */
export interface ToolCallInput {
  /** The tool's name. */
  name: string;
  /** The tool's input. */
  input: Record<string, unknown>;
  /** The call id (default `test-call-N`). */
  id?: string;
}

/** Overrides for one batch of tool calls. */
export interface ToolCallOptions {
  /** The permission mode for this batch (default: the session's). */
  mode?: PermissionMode;
  /** Aborts the batch. */
  signal?: AbortSignal;
  /** Make the calls as this sub-agent instead of the main agent. */
  agentId?: string;
}

/** Settings of a `contextView` call. */
export interface ContextViewRequest {
  /** `turn` (default) or `compact`. */
  kind?: ContextReason['kind'];
  /** The model named in the view (default `test-model`). */
  model?: string;
  /** The context window in tokens (default 200,000). */
  window?: number;
  /** The output reserve in tokens (default 8,192). */
  maxTokens?: number;
}

/** A kernel in a temp project, with helpers to drive it and the record of its hook traffic. */
export interface TestKernel {
  /** The kernel, with every plugin applied. */
  readonly kernel: Kernel;
  /** The temp project's root (symlinks resolved). */
  readonly projectRoot: string;
  /** Every hook call since the plugins were applied, recorded by a plugin named `testing-hook-recorder` applied last. */
  readonly hooks: HookRecorder;
  /** The fake LLM server, when `model` was given. */
  readonly fake: FakeLlm | undefined;
  /**
   * The session prompts and tool calls run in, opened on first use. It is kept in memory, unless
   * `config.persistence.store` names a store: then it is written there as a run's session is (its
   * lease claimed, every event appended, the store closed by `close()`).
   */
  session(): Promise<SessionState>;
  /** Runs one prompt through the agent loop against the scripted model. */
  prompt(text: string, options?: RunOptions): Promise<AgentLoopResult>;
  /** The runner `prompt` uses, for tests that steer or abort a running prompt. */
  runner(): Promise<AgentRunner>;
  /** Runs one tool call through the full pipeline (validation, hooks, permission, scheduler) and returns its result. */
  callTool(name: string, input: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolResultPart>;
  /** Runs a batch of tool calls as one model turn would; results come back in call order. */
  callTools(calls: ToolCallInput[], options?: ToolCallOptions): Promise<ToolResultPart[]>;
  /** What the permission hook decides for a call, without running it. */
  permission(name: string, input: Record<string, unknown>, options?: { mode?: PermissionMode }): Promise<PermissionDecision>;
  /** The view the `context` hook (the configured strategy and its decorators) makes of `messages`. */
  contextView(messages: Message[], request?: ContextViewRequest): Promise<ContextView>;
  /** Reads a project file (path relative to the project). */
  read(path: string): string;
  /** Writes project files (path → content), creating folders. */
  write(files: Record<string, string>): void;
  /** Shuts the kernel down, stops a fake server the kit started, and removes the temp project. */
  close(): Promise<void>;
}

/**
 * What the test kit needs from the configuration layer, which core never imports. The package's
 * `./testing` entry (config/test-kit.ts) supplies the real one: the default preset and the loader.
 */
export interface TestKitConfig {
  /** The built-in plugins a project loads by default, by name. */
  builtins: readonly string[];
  /** Loads the configuration of the project at `cwd` (its `.assistantrc`; never the user's global config), with `flags` as the highest layer. */
  load(cwd: string, flags: AssistantConfig): Promise<ResolvedConfig>;
}

const DEFAULT_MODELS = { anthropic: 'claude-sonnet-4-6', openai: 'gpt-4.1' } as const;
let callIds = 0;

/** The flags layer: built-ins to disable, the scripted provider, and sessions in memory unless the test's config picks a store. */
function kitLayer(options: TestKernelOptions, fake: FakeLlm | undefined, defaults: readonly string[]): AssistantConfig {
  const layer: AssistantConfig = {};
  const builtins = options.builtins ?? true;
  if (builtins !== true) {
    const keep = new Set(builtins === false ? [] : builtins);
    const unknown = [...keep].filter((name) => !defaults.includes(name));
    if (unknown.length)
      throw new ConfigError('ASSISTANT_CONFIG_INVALID', `createTestKernel: no built-in plugin named ${unknown.join(', ')}; the built-ins are ${defaults.join(', ')}`);
    layer.plugins = defaults.filter((name) => !keep.has(name)).map((name): PluginEntry => [name, false]);
  }
  if (fake) {
    const wire = options.wire ?? 'anthropic';
    layer.provider = {
      name: wire,
      model: options.config?.provider?.model ?? DEFAULT_MODELS[wire],
      baseURL: wire === 'anthropic' ? fake.anthropicBaseURL : fake.openaiBaseURL,
    };
  }
  if (!options.config?.persistence?.store) layer.persistence = { store: 'none' };
  return layer;
}

/** Splits the plugins under test into config entries (names, paths) and objects applied directly. */
function splitPlugins(plugins: PluginUnderTest[]): { entries: PluginEntry[]; objects: Array<[Plugin<any>, Record<string, unknown>]> } {
  const entries: PluginEntry[] = [];
  const objects: Array<[Plugin<any>, Record<string, unknown>]> = [];
  for (const item of plugins) {
    const [target, options] = Array.isArray(item) ? item : [item, {}];
    if (typeof target === 'string') entries.push(Object.keys(options).length ? [target, options] : target);
    else objects.push([target, options]);
  }
  return { entries, objects };
}

/**
 * Points the process's data directory (sessions, audit logs, locks) at a temp directory, unless the
 * test chose one: test kernels' sessions must not pile up in the user's own data directory.
 */
function isolateUserData(): void {
  if (process.env.ASSISTANT_DATA_DIR) return;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-test-data-')));
  process.env.ASSISTANT_DATA_DIR = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
}

/**
 * Creates a kernel for plugin tests: a temp project with `files` and `config`, the chosen built-ins,
 * the plugins under test, and (with `model`) the built-in provider talking to a fake LLM server.
 * Every hook call is recorded from the moment the plugins are applied. Sessions and audit logs go to
 * a temp data directory: unless the process already names one, `ASSISTANT_DATA_DIR` is set for it.
 * `configLayer` is the configuration layer core cannot import; plugin authors call the
 * `createTestKernel` of `<pkg>/testing`, which passes the real one.
 */
export async function createTestKernelWith(configLayer: TestKitConfig, options: TestKernelOptions = {}): Promise<TestKernel> {
  isolateUserData();
  const { entries, objects } = splitPlugins(options.plugins ?? []);
  const projectConfig: AssistantConfig = { ...options.config, plugins: [...(options.config?.plugins ?? []), ...entries] };
  const project = createTempProject({ ...options.files, '.assistantrc.json': JSON.stringify(projectConfig, null, 2) });
  let fake: FakeLlm | undefined;
  let ownFake = false;
  try {
    if (options.model && 'requests' in options.model) fake = options.model;
    else if (options.model) {
      fake = await startFakeLlm({ fixture: options.model });
      ownFake = true;
    }
    let hooks: HookRecorder | undefined;
    const recorder: Plugin = { name: 'testing-hook-recorder', apply: (kernel) => void (hooks = recordHooks(kernel.hooks)) };
    const config = await configLayer.load(project.root, kitLayer(options, fake, configLayer.builtins));
    const kernel = await createKernel({
      config,
      headless: options.headless ?? true,
      logLevel: options.logLevel ?? 'silent',
      extraPlugins: [...objects, [recorder, {}] as const].map(([plugin, pluginOptions]) => ({ plugin, options: pluginOptions, source: 'test', listedIn: 'test' })),
    });
    return testKernel(kernel, project, hooks!, fake, ownFake, options);
  } catch (error) {
    if (ownFake) await fake?.close();
    project.remove();
    throw error;
  }
}

function testKernel(kernel: Kernel, project: TempProject, hooks: HookRecorder, fake: FakeLlm | undefined, ownFake: boolean, options: TestKernelOptions): TestKernel {
  const mode = options.mode ?? kernel.config.permissions?.mode ?? 'default';
  let opened: Promise<{ session: SessionState; runner: AgentRunner }> | undefined;
  const open = () =>
    (opened ??= (async () => {
      await kernel.start();
      const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode, provider: kernel.config.provider?.name, model: kernel.config.provider?.model });
      kernel.session = session;
      return { session, runner: createRunner(kernel, session) };
    })());
  const callTools = async (calls: ToolCallInput[], callOptions: ToolCallOptions = {}) => {
    const { session } = await open();
    const parts: ToolCallPart[] = calls.map((c) => ({ type: 'tool_call', id: c.id ?? `test-call-${++callIds}`, name: c.name, input: c.input }));
    return kernel.runToolCalls(parts, {
      mode: callOptions.mode ?? session.mode,
      signal: callOptions.signal ?? new AbortController().signal,
      turn: 1,
      sessionId: session.info.id,
      agentId: callOptions.agentId,
    });
  };
  return {
    kernel,
    projectRoot: project.root,
    hooks,
    fake,
    session: async () => (await open()).session,
    async prompt(text, runOptions) {
      const { runner } = await open();
      return runner.run(text, runOptions);
    },
    runner: async () => (await open()).runner,
    callTools,
    callTool: async (name, input, callOptions) => (await callTools([{ name, input }], callOptions))[0]!,
    async permission(name, input, permissionOptions = {}) {
      const { session } = await open();
      const definition = kernel.tools.get(name);
      if (!definition) throw new Error(`no tool named "${name}" is registered; registered: ${kernel.tools.list().map((t) => t.name).join(', ')}`);
      const call: ToolCallPart = { type: 'tool_call', id: `test-call-${++callIds}`, name, input };
      const scope = { projectRoot: kernel.projectRoot, cwd: kernel.cwd, mode: permissionOptions.mode ?? session.mode, headless: kernel.headless, sessionId: session.info.id };
      return decidePermission(kernel.hooks, permissionRequestFor(definition, call, scope));
    },
    async contextView(messages, request = {}) {
      const { session } = await open();
      const settings = { model: request.model ?? 'test-model', maxTokens: request.maxTokens ?? 8192, window: request.window ?? 200_000 };
      return buildContextView(kernel, { messages, settings, reason: { kind: request.kind ?? 'turn', sessionId: session.info.id } });
    },
    read: (path) => project.read(path),
    write: (files) => project.write(files),
    async close() {
      try {
        await kernel.shutdown();
      } finally {
        if (ownFake) await fake?.close();
        if (!options.keepProject) project.remove();
      }
    },
  };
}
