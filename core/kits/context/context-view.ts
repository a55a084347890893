import { ContextError } from '../../kernel/errors.js';
import type { Kernel } from '../../kernel/kernel-types.js';
import type { Message, SystemSection } from '../../types/messages.js';
import type { ToolSpec } from '../../types/provider.js';
import type { ContextReason, ContextView } from '../../types/context.js';
import { ProviderError } from '../../kernel/errors.js';
import { applyContextStrategy } from '../../context/strategy.js';

/** Output tokens a request reserves when the config sets no `provider.maxTokens`. */
export const DEFAULT_MAX_OUTPUT = 8192;

/** The model, output reserve and window the requests of a run use. */
export interface RequestSettings {
  /** The model requests go to. */
  model: string;
  /** Output tokens reserved for each reply. */
  maxTokens: number;
  /** The model's context window in tokens. */
  window: number;
}

/** Resolves the model (override, config, provider default), the output reserve and the window. */
export function requestSettings(kernel: Kernel, modelOverride?: string): RequestSettings {
  const provider = kernel.provider();
  const model = modelOverride ?? kernel.config.provider?.model ?? provider.defaultModel;
  if (!model)
    throw new ProviderError('ASSISTANT_PROVIDER_NOT_CONFIGURED', `no model selected for provider "${provider.name}": set provider.model in .assistantrc or pass --model`);
  const maxTokens = typeof kernel.config.provider?.maxTokens === 'number' ? kernel.config.provider.maxTokens : DEFAULT_MAX_OUTPUT;
  return { model, maxTokens, window: provider.contextWindow(model) };
}

/** What goes into a context view. */
export interface ContextViewOptions {
  /** The history. */
  messages: readonly Message[];
  /** Model, output reserve and window. */
  settings: RequestSettings;
  /** Why the view is built (a turn, or a compaction). */
  reason: ContextReason;
  /** The base system prompt; the `systemPrompt` hook refines it. */
  system?: SystemSection[];
  /** Which tools the model may see. */
  toolFilter?: (name: string) => boolean;
}

/** The request's content before any context strategy: the system prompt and tools through their hooks, and the history. */
export async function assembleContextView(kernel: Kernel, options: ContextViewOptions): Promise<ContextView> {
  const { hooks } = kernel;
  const { messages, settings } = options;
  const system = await hooks.systemPrompt.promise([...(options.system ?? [])], options.reason);
  const tools: ToolSpec[] = [];
  for (const definition of kernel.tools.list()) {
    if (options.toolFilter && !options.toolFilter(definition.name)) continue;
    tools.push(hooks.toolDefinition.call({ name: definition.name, description: definition.description, inputSchema: definition.inputSchema }, definition));
  }
  return {
    system,
    messages: [...messages],
    tools,
    // Default breakpoints: the stable system + tools prefix, and the newest message. Strategies refine them.
    cache: { system: true, messages: messages.length ? [messages.length - 1] : [] },
    budget: { window: settings.window, outputReserve: settings.maxTokens },
    model: settings.model,
  };
}

/** The view after the configured strategy (`contextStrategy`) and the `context` decorators. */
export async function buildContextView(kernel: Kernel, options: ContextViewOptions): Promise<ContextView> {
  const shaped = await applyContextStrategy(kernel, await assembleContextView(kernel, options), options.reason);
  return kernel.hooks.context.promise(shaped, options.reason);
}

/** Refuses a view whose input would not leave the output reserve free: no request is ever sent over the window. */
export function assertFitsWindow(kernel: Kernel, view: ContextView): void {
  const measure = kernel.budget.measure(view);
  if (measure.free >= 0) return;
  throw new ContextError(
    'ASSISTANT_CONTEXT_OVERFLOW',
    `the next request needs about ${measure.total} input tokens, but ${view.model} has a ${measure.window}-token window with ${measure.outputReserve} reserved for output and ${measure.margin} for the estimate's margin; ` +
      'nothing was sent. Run /compact, start a new session, or use context.strategy "compaction"',
  );
}
