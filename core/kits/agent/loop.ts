import { AssistantError, ConfigError, ProviderError, isAssistantError } from '../../kernel/errors.js';
import type { StopContext, TurnContext } from '../../kernel/hooks.js';
import type { Kernel } from '../../kernel/kernel-types.js';
import { addUsage, emptyUsage, messageText, type AssistantMessage, type SystemSection, type ToolCallPart, type ToolMessage, type UserMessage, type Usage } from '../../types/messages.js';
import type { AgentEvent, DoneReason } from '../../types/events.js';
import type { LimitsConfig } from '../../types/config.js';
import type { PermissionMode } from '../../types/permission.js';
import type { Provider, ProviderRequest, ProviderStreamEvent } from '../../types/provider.js';
import type { ContextReason } from '../../types/context.js';
import type { Conversation } from './conversation.js';
import type { AgentLoopResult } from '../../types/agent.js';
import type { Spent } from '../../types/tools.js';
import type { SteeringQueue } from './steering.js';
import { RepeatDetector } from './repeat-detector.js';
import { dropOversizedInputs } from './oversized-input.js';
import { assertFitsWindow, buildContextView, requestSettings, type RequestSettings } from '../context/index.js';

/** How to run the loop for one prompt. */
export interface AgentLoopOptions {
  /** The history the loop reads and appends to. */
  conversation: Conversation;
  /** The user's prompt. */
  prompt: string | UserMessage;
  /** Stops the loop: the stream and running tools are aborted. */
  signal: AbortSignal;
  /** The permission mode for tool calls (read at each batch). */
  mode: PermissionMode;
  /** Overrides of the configured `limits`. */
  limits?: LimitsConfig;
  /** Sub-agent id; absent for the main agent. */
  agentId?: string;
  /** For a sub-agent: the tool call that started it; every event of the run carries it. */
  parentCallId?: string;
  /** The session the loop runs in. */
  sessionId?: string;
  /** Which tools the model may see and call (sub-agent subsets, --allowed-tools). */
  toolFilter?: (name: string) => boolean;
  /** The base system prompt; the `systemPrompt` hook still refines it. Default: empty, built by plugins. */
  system?: SystemSection[];
  /** Overrides the configured model. */
  model?: string;
  /** Messages typed while the loop works, injected before the next model call. */
  steering?: SteeringQueue;
}

const DEFAULT_LIMITS: Required<Pick<LimitsConfig, 'maxTurns' | 'maxToolFailures' | 'repeatedCallLimit'>> = {
  maxTurns: 100,
  maxToolFailures: 3,
  repeatedCallLimit: 3,
};
function userMessage(text: string, origin: 'user' | 'steering' | 'reminder'): UserMessage {
  return { role: 'user', content: [{ type: 'text', text }], meta: { time: Date.now(), origin } };
}

function totalTokens(u: Usage): number {
  return u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens;
}

/** What a tool result says it spent on the caller's behalf (`metadata.spent`), if it says so plainly. */
function spentBy(metadata: { [key: string]: unknown } | undefined): Spent | undefined {
  const spent = metadata?.spent as Partial<Spent> | undefined;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  return spent && ok(spent.tokens) && ok(spent.costUsd) ? { tokens: spent.tokens, costUsd: spent.costUsd } : undefined;
}

/**
 * The master loop: prompt → context → model → tools → results → repeat, until a reply has no
 * tool call or a limit is hit. Everything goes through hooks; tool failures are results the model
 * sees, never crashes.
 */
export async function runAgentLoop(kernel: Kernel, options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { hooks } = kernel;
  const { conversation, signal, agentId, sessionId, parentCallId } = options;
  const limits = { ...DEFAULT_LIMITS, ...kernel.config.limits, ...options.limits };
  const usage = emptyUsage();
  const emit = (event: AgentEvent) => hooks.event.call({ ...event, agentId, sessionId, ...(parentCallId ? { parentCallId } : {}) });
  const repeats = new RepeatDetector(limits.repeatedCallLimit);
  let consecutiveFailures = 0;
  let continued = 0;
  let turns = 0;
  let lastText = '';
  let costUsd = 0;
  // Spent for this prompt by its tools (sub-agents): it counts against the same budget.
  const delegated: Spent = { tokens: 0, costUsd: 0 };
  const spent = (): Spent => ({ tokens: totalTokens(usage) + delegated.tokens, costUsd: costUsd + delegated.costUsd });
  const byTools = () => (delegated.tokens ? `, ${delegated.tokens} of them by sub-agents` : '');

  const finish = (reason: DoneReason, message?: string, error?: AssistantError): AgentLoopResult => {
    if (message) emit({ type: 'notice', level: reason === 'completed' ? 'info' : reason === 'error' ? 'error' : 'warn', message, code: error?.code });
    emit({ type: 'done', reason, text: lastText, usage: { ...usage }, turns });
    return { reason, text: lastText, usage, turns, message, error, spent: spent() };
  };

  try {
    const provider = kernel.provider();
    const settings = requestSettings(kernel, options.model);
    const { model } = settings;
    if (limits.maxCostUsd && !kernel.budget.price(provider.name, model))
      throw new ConfigError(
        'ASSISTANT_PRICE_UNKNOWN',
        `limits.maxCostUsd is set but no price is known for ${provider.name}/${model}, so the cost cannot be enforced; add it under pricing.${provider.name} in .assistantrc (US dollars per million tokens: input, output, cacheRead, cacheWrite)`,
      );

    const first: TurnContext = { turn: 0, sessionId, agentId, signal };
    const raw = typeof options.prompt === 'string' ? userMessage(options.prompt, 'user') : options.prompt;
    const prompt = await hooks.userPrompt.promise(raw, first);
    await conversation.append(prompt);

    while (true) {
      if (signal.aborted) return finish('aborted', 'stopped by the user');
      if (turns >= limits.maxTurns)
        return finish('max_turns', `stopped after ${turns} model turn${turns === 1 ? '' : 's'} (limits.maxTurns = ${limits.maxTurns}); raise it or continue with a new prompt`);
      const sofar = spent();
      if (limits.maxTokens && sofar.tokens >= limits.maxTokens)
        return finish('budget', `stopped: this prompt used ${sofar.tokens} tokens${byTools()} (limits.maxTokens = ${limits.maxTokens})`);
      if (limits.maxCostUsd && sofar.costUsd >= limits.maxCostUsd)
        return finish('budget', `stopped: this prompt cost $${sofar.costUsd.toFixed(4)}${delegated.costUsd ? `, $${delegated.costUsd.toFixed(4)} of it by sub-agents` : ''} (limits.maxCostUsd = $${limits.maxCostUsd})`);

      for (const text of options.steering?.drain() ?? []) await conversation.append(userMessage(text, 'steering'));

      turns++;
      const turn: TurnContext = { turn: turns, sessionId, agentId, signal };
      emit({ type: 'turn_start', turn: turns });
      await hooks.turnStart.promise(turn);

      const request = await buildRequest(kernel, options, settings);
      const streamed = await streamReply(provider.stream(request, signal), signal, emit);
      if (streamed.usage) {
        addUsage(usage, streamed.usage);
        costUsd += recordRequest(kernel, provider, request, settings, agentId, streamed.usage);
        await conversation.recordUsage(streamed.usage, model);
      }
      // An input too large to keep is dropped before it reaches the history: the call is refused, the session stays usable.
      streamed.message = dropOversizedInputs(streamed.message);
      if (streamed.message.content.length) await conversation.append(streamed.message);
      // Only a reply that completed is the answer: half a sentence from a failed stream is not.
      if (!streamed.error) lastText = messageText(streamed.message) || lastText;
      if (streamed.aborted) return finish('aborted', 'stopped by the user; the partial reply was kept');
      if (streamed.error) return finish('error', streamed.error.message, streamed.error);

      const calls = streamed.message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
      if (!calls.length) {
        await hooks.turnEnd.promise(turn);
        await conversation.checkpoint('turn_end');
        emit({ type: 'turn_end', turn: turns, usage: { ...usage } });
        const more = await askBeforeStop(kernel, { ...turn, text: lastText, continued }, emit);
        if (!more) return finish('completed');
        continued++;
        await conversation.append(userMessage(more, 'reminder'));
        continue;
      }

      const results = await kernel.runToolCalls(calls, { mode: options.mode, signal, turn: turns, sessionId, agentId, parentCallId, model, toolFilter: options.toolFilter });
      const toolMessage: ToolMessage = { role: 'tool', content: results, meta: { time: Date.now() } };
      await conversation.append(toolMessage);
      await conversation.checkpoint('tool_result');

      for (const result of results) {
        consecutiveFailures = result.isError ? consecutiveFailures + 1 : 0;
        const byTool = spentBy(result.metadata);
        if (byTool) {
          delegated.tokens += byTool.tokens;
          delegated.costUsd += byTool.costUsd;
        }
      }
      const stuck = repeats.observe(calls);
      if (stuck) {
        emit({ type: 'notice', level: 'warn', message: `the model repeated the same ${stuck} call ${limits.repeatedCallLimit} times; reminding it` });
        await conversation.append(
          userMessage(
            `You have made the same ${stuck} call with the same input ${limits.repeatedCallLimit} times in a row. You seem stuck: the result will not change. Step back, try a different approach, or ask the user.`,
            'reminder',
          ),
        );
      }
      await hooks.turnEnd.promise(turn);
      await conversation.checkpoint('turn_end');
      emit({ type: 'turn_end', turn: turns, usage: { ...usage } });

      if (signal.aborted) return finish('aborted', 'stopped by the user');
      if (consecutiveFailures >= limits.maxToolFailures) {
        const last = results[results.length - 1]!;
        const why = last.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').slice(0, 300);
        return finish(
          'tool_failures',
          `stopped after ${consecutiveFailures} tool calls failed in a row (limits.maxToolFailures = ${limits.maxToolFailures}); last error: ${why}. Say how to proceed.`,
        );
      }
    }
  } catch (error) {
    if (signal.aborted && !isAssistantError(error)) return finish('aborted', 'stopped by the user');
    const wrapped = isAssistantError(error)
      ? (error as AssistantError)
      : new AssistantError('ASSISTANT_INTERNAL', (error as Error)?.message ?? String(error), { cause: error });
    return finish('error', wrapped.message, wrapped);
  }
}

/** Runs `beforeStop`: a message to send the model back to work with, or nothing. Fails open: a failing tap is reported and the reply stands. */
async function askBeforeStop(kernel: Kernel, stop: StopContext, emit: (event: AgentEvent) => void): Promise<string | undefined> {
  try {
    const more = await kernel.hooks.beforeStop.promise(stop);
    return typeof more === 'string' && more.trim() ? more : undefined;
  } catch (error) {
    const code = isAssistantError(error) ? error.code : undefined;
    emit({ type: 'notice', level: 'warn', message: `a beforeStop hook failed, so the reply stands: ${(error as Error)?.message ?? error}`, code });
    return undefined;
  }
}

/** Builds the request through the `systemPrompt`, `toolDefinition`, `context` and `providerRequest` hooks; refuses one over the window. */
async function buildRequest(kernel: Kernel, options: AgentLoopOptions, settings: RequestSettings): Promise<ProviderRequest> {
  const { conversation } = options;
  const reason: ContextReason = {
    kind: 'turn',
    sessionId: options.sessionId,
    agentId: options.agentId,
    signal: options.signal,
    replaceHistory: (replacement) => conversation.replace(replacement),
  };
  const view = await buildContextView(kernel, { messages: conversation.messages, settings, reason, system: options.system, toolFilter: options.toolFilter });
  assertFitsWindow(kernel, view);
  return kernel.hooks.providerRequest.promise({
    model: view.model,
    system: view.system,
    messages: view.messages,
    tools: view.tools,
    maxTokens: settings.maxTokens,
    cache: view.cache,
    ...(typeof kernel.config.provider?.thinkingBudget === 'number' ? { thinkingBudget: kernel.config.provider.thinkingBudget } : {}),
  });
}

/** Enters a finished request in the budget ledger; returns its cost (0 when the model has no price). */
function recordRequest(kernel: Kernel, provider: Provider, request: ProviderRequest, settings: RequestSettings, agentId: string | undefined, reported: Usage): number {
  const budget = { window: settings.window, outputReserve: settings.maxTokens };
  return kernel.budget.record({ ...request, budget, provider: provider.name, agentId, usage: reported }).costUsd ?? 0;
}

interface StreamedReply {
  message: AssistantMessage;
  usage?: Usage;
  aborted?: boolean;
  error?: AssistantError;
}

/** The text a reply streamed before it was cut short, as the message kept in the history. */
function partialReply(text: string, stopReason: 'aborted' | 'error'): AssistantMessage {
  return { role: 'assistant', content: text ? [{ type: 'text', text }] : [], meta: { time: Date.now(), stopReason } };
}

/**
 * Consumes a provider stream, emitting each event; on abort or failure keeps the text streamed so
 * far. An abort stops consumption at once: events the provider had already buffered are not
 * shown, so what is kept is exactly what the user saw.
 */
async function streamReply(stream: AsyncIterable<ProviderStreamEvent>, signal: AbortSignal, emit: (e: AgentEvent) => void): Promise<StreamedReply> {
  let partial = '';
  try {
    for await (const event of stream) {
      if (signal.aborted) return { message: partialReply(partial, 'aborted'), aborted: true };
      emit({ type: 'model', event });
      if (event.type === 'text_delta') partial += event.text;
      // The provider starts the reply over: what it streamed of the broken attempt is not kept.
      if (event.type === 'retry' && event.discard) partial = '';
      if (event.type === 'stop') return { message: event.message, usage: event.usage, aborted: event.reason === 'aborted' };
    }
    throw new ProviderError('ASSISTANT_PROVIDER_PROTOCOL', 'the provider stream ended without a stop event');
  } catch (error) {
    if (signal.aborted) return { message: partialReply(partial, 'aborted'), aborted: true };
    const wrapped = isAssistantError(error)
      ? (error as AssistantError)
      : new ProviderError('ASSISTANT_PROVIDER_PROTOCOL', `the model stream failed: ${(error as Error)?.message ?? error}`, { cause: error });
    return { message: partialReply(partial, 'error'), error: wrapped };
  }
}
