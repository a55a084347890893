// A real provider plugin for context tests and benchmarks: it answers from a script, refuses
// requests over its window as the API would, and reports usage with Anthropic's cache rules.
import { AnthropicCacheSim, blockTokens } from './anthropic-cache.js';

/**
 * @typedef {import('../../../dist/core/index.js').ProviderRequest} ProviderRequest
 * @typedef {import('../../../dist/core/index.js').AssistantMessage['content']} ReplyContent
 * @typedef {{ kind: 'stream' | 'complete', request: ProviderRequest, usage?: import('../../../dist/core/index.js').Usage, total: number, blocks: number, rejected?: string }} SeenRequest
 */

/** A structured summary like a model would write, naming what it saw. @param {ProviderRequest} request */
export function defaultSummary(request) {
  const userTexts = request.messages.filter((m) => m.role === 'user' && m.meta?.origin === 'user').length;
  return `## Goal\nFinish the scripted task.\n\n## Decisions\nNone yet.\n\n## Files changed\n- none\n\n## Current state\nSummarized ${request.messages.length - 1} messages (${userTexts} user prompts).\n\n## Open todos\n- continue\n\n## User preferences\n- none stated`;
}

/**
 * @param {{
 *   reply: (request: ProviderRequest, index: number) => ReplyContent,
 *   summary?: (request: ProviderRequest) => string,
 *   window?: number,
 *   model?: string,
 *   failSummary?: boolean,
 *   cache?: AnthropicCacheSim,
 *   name?: string,
 * }} options
 */
export function scriptedProvider(options) {
  /** @type {SeenRequest[]} */
  const requests = [];
  const cache = options.cache ?? new AnthropicCacheSim();
  let window = options.window ?? 200_000;
  const name = options.name ?? 'scripted';

  /** Accounts a request, or refuses it as the API does when it does not fit. @param {'stream' | 'complete'} kind @param {ProviderRequest} request */
  function admit(kind, request) {
    const copy = structuredClone(request);
    let usage;
    try {
      usage = cache.account(request);
    } catch (error) {
      requests.push({ kind, request: copy, total: 0, blocks: 0, rejected: /** @type {Error} */ (error).message });
      throw error;
    }
    const seen = { kind, request: copy, total: usage.total, blocks: usage.blocks };
    requests.push(seen);
    if (usage.total + request.maxTokens > window) {
      seen.rejected = `prompt is too long: ${usage.total} tokens + ${request.maxTokens} max_tokens > ${window}`;
      throw Object.assign(new Error(seen.rejected), { status: 400 });
    }
    return { seen, usage };
  }

  /** @param {ReplyContent} content @param {ReturnType<typeof admit>} admitted */
  function finish(content, admitted) {
    const { usage, seen } = admitted;
    const result = {
      inputTokens: usage.inputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      outputTokens: blockTokens(JSON.stringify(content)),
    };
    seen.usage = result;
    const message = { role: /** @type {const} */ ('assistant'), content, meta: { time: Date.now(), stopReason: content.some((p) => p.type === 'tool_call') ? 'tool_use' : 'end_turn' } };
    return { message, usage: result };
  }

  const provider = {
    name,
    defaultModel: options.model ?? 'scripted-model',
    capabilities: { images: true, thinking: false, promptCaching: true, parallelToolCalls: true },
    contextWindow: () => window,
    /** @param {ProviderRequest} request */
    async countTokens(request) {
      return new AnthropicCacheSim().account({ ...request, cache: undefined, maxTokens: 0 }).total;
    },
    /** @param {ProviderRequest} request */
    async *stream(request) {
      const index = requests.filter((r) => r.kind === 'stream').length;
      const admitted = admit('stream', request);
      const { message, usage } = finish(options.reply(request, index), admitted);
      yield { type: 'message_start', model: request.model };
      for (const part of message.content) {
        if (part.type === 'text') yield { type: 'text_delta', text: part.text };
        if (part.type === 'tool_call') {
          yield { type: 'tool_call_start', id: part.id, name: part.name };
          yield { type: 'tool_call_end', id: part.id, name: part.name, input: part.input };
        }
      }
      yield { type: 'stop', reason: message.meta.stopReason, message, usage };
    },
    /** @param {ProviderRequest} request */
    async complete(request) {
      if (options.failSummary) {
        requests.push({ kind: 'complete', request: structuredClone(request), total: 0, blocks: 0, rejected: 'overloaded' });
        throw Object.assign(new Error('Overloaded'), { status: 529 });
      }
      const admitted = admit('complete', request);
      const { message, usage } = finish([{ type: 'text', text: (options.summary ?? defaultSummary)(request) }], admitted);
      return { message, usage, stopReason: 'end_turn' };
    },
  };

  const plugin = {
    name: `${name}-provider`,
    /** @param {import('../../../dist/core/index.js').Kernel} kernel */
    apply(kernel) {
      kernel.hooks.provider.for(name).tap(`${name}-provider`, () => provider);
    },
  };
  /** Changes the window the provider reports and enforces (a model switch). @param {number} tokens */
  const setWindow = (tokens) => {
    window = tokens;
  };
  return { plugin, provider, requests, cache, setWindow };
}
