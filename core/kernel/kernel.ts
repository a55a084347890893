import { createHooks, type Hooks } from './hooks.js';
import { instrumentHook, type TapTracker } from './instrument.js';
import { createLogger, type LogLevel, type Logger } from './logger.js';
import { checkCompatibility, collectPlugins, isBuiltInSource, resolveOptions, type PreparedPlugin } from './plugin-loader.js';
import { AssistantError, ConfigError, PluginError, ProviderError, formatError, isAssistantError } from './errors.js';
import { checkContextStrategy, offeredContextStrategies } from '../context/strategy.js';
import { createToolRegistry } from '../tools/registry.js';
import { createToolRuntime, type ToolRuntimeOptions } from '../tools/runtime.js';
import { createCommandRegistry } from './commands.js';
import { createMetricsRegistry } from './metrics.js';
import { createControlFiles } from './control-files.js';
import { createErrorCodeRegistry } from './error-codes.js';
import { selectStore, selectedStoreName } from './session-store.js';
import { KERNEL_API_VERSION } from './version.js';
import { didYouMean } from './close-matches.js';
import { sourceFor } from './config-source.js';
import { createContextLedger } from '../context/ledger.js';
import type { PriceTable } from '../context/pricing.js';
import type { Kernel, LoadedPlugin } from './kernel-types.js';
import type { ResolvedConfig } from '../types/config.js';
import type { Provider } from '../types/provider.js';
import type { SessionStore } from '../types/session.js';

/** How to build a kernel. */
export interface KernelOptions {
  /** The configuration: what config/load.ts resolves from .assistantrc files, or one an embedder builds (plugins may be empty and come through `extraPlugins`). */
  config: ResolvedConfig;
  /** No one can answer questions (print mode, CI). */
  headless?: boolean;
  /** The least severe log level written (default `warn`). */
  logLevel?: LogLevel;
  /** Write logs as JSON lines to this file instead of stderr. */
  logFile?: string;
  /** Trace every hook call at debug level. */
  traceHooks?: boolean;
  /** Plugins applied after the configured ones (tests, embedding). */
  extraPlugins?: PreparedPlugin[];
  /** Tuning of the tool runtime (pool size, abort grace period). */
  toolRuntime?: ToolRuntimeOptions;
  /**
   * Check now what the config selects by name (provider and its options, session store, context
   * strategy) instead of at first use, and report it with the other config problems (the CLI does).
   */
  checkSelections?: boolean;
}

/** Top-level config keys the core owns; plugins claim more through `configKey`. */
export const CORE_CONFIG_KEYS = ['$schema', 'extends', 'plugins', 'provider', 'permissions', 'context', 'persistence', 'limits', 'sandbox', 'pricing'];

/**
 * The hooks as plugins see them: reading a name that is no hook throws ASSISTANT_HOOK_UNKNOWN with
 * the closest names (a JavaScript plugin gets no compile-time check). The cost is one trap per read.
 */
function hookProxy(hooks: Hooks): Hooks {
  const ignored = new Set(['then', 'toJSON', 'constructor', 'inspect', 'nodeType', 'asymmetricMatch', 'valueOf', 'toString']);
  return new Proxy(hooks, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !(key in target) && !ignored.has(key) && !key.startsWith('$$') && !key.startsWith('@@'))
        throw new PluginError(
          'ASSISTANT_HOOK_UNKNOWN',
          `there is no hook "${key}"${didYouMean(key, Object.keys(target))}; the hooks are listed in docs/hooks.md`,
          { hook: key },
        );
      return Reflect.get(target, key, receiver);
    },
  });
}

export { sourceFor };

/** Creates a kernel: imports, checks and applies the configured plugins. */
export async function createKernel(options: KernelOptions): Promise<Kernel> {
  const { config } = options;
  const logger = createLogger('assistant', { level: options.logLevel ?? 'warn', file: options.logFile });
  const rawHooks = createHooks();
  const providerNames = new Set<string>();
  const storeNames = new Set<string>();
  const loaded = new Map<string, LoadedPlugin>();
  const tracker: TapTracker = {
    active: undefined,
    record(plugin, hook) {
      const info = loaded.get(plugin);
      if (info && !info.hooks.includes(hook)) info.hooks.push(hook);
    },
  };
  const trace = options.traceHooks ? logger.child('hooks') : undefined;
  for (const [name, hook] of Object.entries(rawHooks)) {
    if (name === 'provider') {
      rawHooks.provider.intercept({
        factory: (key, created) => {
          providerNames.add(String(key));
          instrumentHook(created, `provider.${String(key)}`, tracker, trace);
          return created;
        },
      });
    } else if (name === 'contextStrategy') {
      const strategyNames = offeredContextStrategies(rawHooks.contextStrategy);
      rawHooks.contextStrategy.intercept({
        factory: (key, created) => {
          strategyNames.add(String(key));
          instrumentHook(created, `contextStrategy.${String(key)}`, tracker, trace);
          return created;
        },
      });
    } else if (name === 'sessionStore') {
      rawHooks.sessionStore.intercept({
        factory: (key, created) => {
          storeNames.add(String(key));
          instrumentHook(created, `sessionStore.${String(key)}`, tracker, trace);
          return created;
        },
      });
    } else {
      instrumentHook(hook as Parameters<typeof instrumentHook>[0], name, tracker, trace);
    }
  }
  const hooks = hookProxy(rawHooks);

  const { prepared, listedNames, unknownDisabled } = await collectPlugins(config.plugins, config.disabled, config.projectRoot);
  prepared.push(...(options.extraPlugins ?? []));
  checkCompatibility(prepared, KERNEL_API_VERSION);
  // Codes are known before any `apply` runs, so an error thrown while applying already maps to its status.
  const errorCodes = createErrorCodeRegistry();
  for (const { plugin, source } of prepared) if (plugin.errors !== undefined) errorCodes.register(plugin.name, plugin.errors, isBuiltInSource(source));
  // Every config problem is reported at once: one stage's mistakes must not hide the next one's.
  const problems: AssistantError[] = [...unknownKeyProblems(config, prepared), ...unknownDisabled.map((name) => disabledProblem(config, name, listedNames))];
  const sourceOf = (pointer: string) => sourceFor(config, pointer);
  const resolvedOptions = prepared.map((item) => {
    try {
      return resolveOptions(item, config.values, sourceOf);
    } catch (error) {
      if (!(isAssistantError(error) && error.code === 'ASSISTANT_PLUGIN_OPTIONS_INVALID')) throw error;
      problems.push(error);
      return undefined;
    }
  });
  // A plugin cannot be applied with options its schema rejects: stop here.
  if (resolvedOptions.includes(undefined)) throw combineProblems(problems);

  let provider: Provider | undefined;
  let store: SessionStore | undefined;
  let started: Promise<void> | undefined;
  let stopped: Promise<void> | undefined;
  const tools = createToolRegistry(() => tracker.active);
  // The kernel's own code names hooks correctly: it skips the typo-catching proxy on the tool path.
  const runtime = createToolRuntime(
    { hooks: rawHooks, registry: tools, projectRoot: config.projectRoot, cwd: config.cwd, headless: options.headless ?? false, logger: logger.child('tools') },
    options.toolRuntime,
  );
  const kernel: Kernel = {
    apiVersion: KERNEL_API_VERSION,
    hooks,
    config: config.values,
    resolvedConfig: config,
    projectRoot: config.projectRoot,
    cwd: config.cwd,
    headless: options.headless ?? false,
    tools,
    files: runtime.files,
    commands: createCommandRegistry(() => tracker.active),
    budget: createContextLedger(() => config.values.pricing as PriceTable | undefined),
    plugins: [],
    errorCodes,
    logger,
    session: undefined,
    metrics: createMetricsRegistry(),
    controlFiles: createControlFiles(),
    runToolCalls: (calls, context) => runtime.run(calls, context),
    provider() {
      provider ??= selectProvider(hooks, config, providerNames);
      return provider;
    },
    store() {
      store ??= selectStore(hooks, config, storeNames, sourceFor(config, '/persistence/store'));
      return store;
    },
    selectionProblem() {
      const found = selectionProblems(kernel);
      return found.length ? combineProblems(found) : undefined;
    },
    start() {
      started ??= (async () => {
        await hooks.ready.promise(kernel);
        await hooks.registerTools.promise(kernel.tools);
      })();
      return started;
    },
    shutdown(reason = 'done') {
      stopped ??= (async () => {
        // Plugins have nothing to release when the kernel never started (e.g. `assistant --help`),
        // but tool calls may have run (tests, embedders): the pool and watcher always go.
        try {
          if (started) {
            await started.catch(() => undefined);
            await hooks.shutdown.promise({ reason });
            await provider?.close?.();
          }
        } finally {
          await runtime.close();
          // Last: shutdown taps (audit, metrics) may still write through the store.
          await store?.close();
        }
      })();
      return stopped;
    },
  };

  for (const [index, item] of prepared.entries()) {
    const { plugin } = item;
    const pluginOptions = resolvedOptions[index]!;
    const info: LoadedPlugin = { name: plugin.name, version: plugin.version ?? item.packageVersion, source: item.source, listedIn: item.listedIn, hooks: [] };
    loaded.set(plugin.name, info);
    (kernel.plugins as LoadedPlugin[]).push(info);
    tracker.active = plugin.name;
    try {
      plugin.apply(kernel, pluginOptions, { logger: logger.child(plugin.name) });
    } catch (cause) {
      // A plugin that checks its options beyond its schema reports them as such (exit 2, not a crash).
      if (isAssistantError(cause) && cause.code === 'ASSISTANT_PLUGIN_OPTIONS_INVALID') throw cause;
      if (isAssistantError(cause) && cause.code === 'ASSISTANT_HOOK_UNKNOWN')
        throw new PluginError('ASSISTANT_HOOK_UNKNOWN', `plugin "${plugin.name}" (${item.source}): ${cause.message}`, {
          plugin: plugin.name,
          cause,
        });
      throw new PluginError(
        'ASSISTANT_PLUGIN_APPLY_FAILED',
        `plugin "${plugin.name}" (${item.source}) failed while applying: ${(cause as Error)?.message ?? cause}`,
        { plugin: plugin.name, cause, file: item.source },
      );
    } finally {
      tracker.active = undefined;
    }
  }
  if (options.checkSelections) problems.push(...selectionProblems(kernel));
  if (problems.length) throw combineProblems(problems);
  return kernel;
}

function disabledProblem(config: ResolvedConfig, name: string, listed: string[]): AssistantError {
  const file = config.disabledIn?.[name] ?? 'the configuration';
  return new ConfigError(
    'ASSISTANT_CONFIG_INVALID',
    `${file}: /plugins: ["${name}", false] disables nothing: no listed plugin is named "${name}"${didYouMean(name, listed)} (a plugin is disabled by its name, as \`assistant plugins\` lists it)`,
    { file },
  );
}

/** Problems with what the config selects by name, found by selecting each now. */
function selectionProblems(kernel: Kernel): AssistantError[] {
  const problems: AssistantError[] = [];
  const attempt = (select: () => void, ignored: string[] = []) => {
    try {
      select();
    } catch (error) {
      if (!isAssistantError(error)) throw error;
      if (!ignored.includes(error.code)) problems.push(error);
    }
  };
  // A missing key is the environment's business, not the config's (`assistant doctor` reports it).
  attempt(() => kernel.provider(), ['ASSISTANT_PROVIDER_NOT_CONFIGURED']);
  if (selectedStoreName(kernel.resolvedConfig)) attempt(() => kernel.store());
  attempt(() => checkContextStrategy(kernel));
  return problems;
}

/** One problem as itself (its code kept); several as one ASSISTANT_CONFIG_INVALID listing each with its code. */
function combineProblems(problems: AssistantError[]): AssistantError {
  if (problems.length === 1) return problems[0]!;
  const indent = (text: string) => text.replace(/\n/g, '\n    ');
  return new ConfigError(
    'ASSISTANT_CONFIG_INVALID',
    `the configuration has ${problems.length} problems:\n  ${problems.map((p) => indent(formatError(p))).join('\n  ')}`,
    { file: problems[0]!.file, cause: problems[0] },
  );
}


function unknownKeyProblems(config: ResolvedConfig, prepared: PreparedPlugin[]): AssistantError[] {
  const known = new Set(CORE_CONFIG_KEYS);
  for (const { plugin } of prepared) if (plugin.configKey) known.add(plugin.configKey.split('.')[0]!);
  const unknown = Object.keys(config.values).filter((k) => !known.has(k));
  if (!unknown.length) return [];
  return [
    new ConfigError(
      'ASSISTANT_CONFIG_INVALID',
      unknown
        .map((k) => `${sourceFor(config, `/${k}`)}: /${k}: is not a known key${didYouMean(k, known)} (no loaded plugin claims it)`)
        .join('\n'),
      { file: sourceFor(config, `/${unknown[0]}`) },
    ),
  ];
}

function selectProvider(hooks: Hooks, config: ResolvedConfig, known: Set<string>): Provider {
  const { name, model, ...rest } = config.values.provider ?? {};
  if (!name)
    throw new ProviderError(
      'ASSISTANT_PROVIDER_NOT_CONFIGURED',
      'no provider is selected: set provider.name in .assistantrc (e.g. "anthropic" or "openai") or pass --provider',
    );
  const hook = hooks.provider.get(name);
  const created = hook?.isUsed() ? hook.call({ name, model, options: rest, sourceOf: (pointer) => sourceFor(config, pointer) }) : undefined;
  if (!created)
    throw new ProviderError(
      'ASSISTANT_PROVIDER_UNKNOWN',
      `no loaded plugin provides "${name}" (set in ${sourceFor(config, '/provider/name')})${didYouMean(name, known)}; ` +
        (known.size ? `available: ${[...known].sort().join(', ')}` : "add the provider's plugin to plugins in your config"),
    );
  return created;
}
