import type Anthropic from '@anthropic-ai/sdk';
import {
  classifySdkError,
  countRequestTokens,
  createSdkProvider,
  protocolFailure,
  resolveCredentials,
  responseCacheFrom,
  retryPolicyFrom,
  sdkLogging,
  thinkingBudgetFrom,
  type CommonProviderOptions,
  type Logger,
  type Provider,
  type ProviderRequest,
  type ProviderSettings,
  type ProviderTarget,
} from '../../core/index.js';
import { toWireRequest } from './convert.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL, contextWindowOf } from './models.js';
import { WireProtocolError, translateMessage, translateStream } from './translate.js';

/** The `provider:` options of the Anthropic provider. */
export interface AnthropicOptions extends CommonProviderOptions {
  /** `estimate` (default, no request) or `api` (the count_tokens endpoint, falling back to the estimate). */
  tokenCount?: 'estimate' | 'api';
}

/** Default timeouts: headers within 2 minutes, no stream silence over 1 minute (the API pings every few seconds). */
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** The plugin's name, on its hook taps and errors. */
export const PLUGIN = 'provider-anthropic';

/** Creates the Anthropic provider. Nothing is imported or connected until the first request. */
export function createAnthropicProvider(settings: ProviderSettings, options: AnthropicOptions, logger: Logger, env: NodeJS.ProcessEnv = process.env): Provider {
  const keyEnv = options.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
  const credentials = resolveCredentials({ provider: settings.name, keyEnv, baseURLEnv: 'ANTHROPIC_BASE_URL', configBaseURL: options.baseURL, env, plugin: PLUGIN });
  const model = settings.model ?? DEFAULT_MODEL;
  const baseURL = credentials.baseURL ?? 'https://api.anthropic.com';
  const target: ProviderTarget = { provider: settings.name, model, baseURL, keyEnv };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const authToken = credentials.apiKey ? undefined : env.ANTHROPIC_AUTH_TOKEN?.trim() || undefined;

  const prepare = (request: ProviderRequest): ProviderRequest => ({
    ...request,
    model: request.model || model,
    maxTokens: request.maxTokens || options.maxTokens || DEFAULT_MAX_TOKENS,
    temperature: request.temperature ?? options.temperature,
    thinkingBudget: thinkingBudgetFrom(options, request.thinkingBudget),
  });
  const wire = (request: ProviderRequest) => toWireRequest(request, { maxTokens: request.maxTokens, thinkingBudget: request.thinkingBudget });
  const headersOf = (request: ProviderRequest) => (request.extra?.headers as Record<string, string> | undefined) ?? undefined;

  return createSdkProvider<Anthropic>({
    name: settings.name,
    capabilities: { images: true, thinking: true, promptCaching: true, parallelToolCalls: true },
    defaultModel: model,
    policy: retryPolicyFrom(options),
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    endpoint: baseURL,
    responseCache: responseCacheFrom(options),
    async connect() {
      const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
      const common = { baseURL, maxRetries: 0, timeout: timeoutMs, ...sdkLogging(logger) };
      if (credentials.apiKey) return new AnthropicClient({ ...common, apiKey: credentials.apiKey, defaultHeaders: options.headers });
      if (authToken) return new AnthropicClient({ ...common, authToken, defaultHeaders: options.headers });
      // A keyless compatible server: send no credentials at all, and never look for a profile on disk.
      class KeylessAnthropic extends AnthropicClient {
        protected override _shouldResolveDefaultCredentials(): boolean {
          return false;
        }
      }
      return new KeylessAnthropic({ ...common, apiKey: null, authToken: null, defaultHeaders: { ...options.headers, authorization: null } });
    },
    prepare,
    async openStream(client, request, signal) {
      const stream = await client.messages.create({ ...wire(request), stream: true }, { signal, headers: headersOf(request) });
      return translateStream(stream, request.model);
    },
    async complete(client, request, signal) {
      return translateMessage(await client.messages.create(wire(request), { signal, headers: headersOf(request) }));
    },
    classify(error) {
      if (error instanceof WireProtocolError) return protocolFailure(error.message, target, error);
      return classifySdkError(error, target, timeoutMs);
    },
    async countTokens(request, client) {
      if (options.tokenCount !== 'api') return countRequestTokens(request);
      const body = wire(prepare({ ...request, maxTokens: 1 }));
      try {
        const counted = await (await client()).messages.countTokens({ model: body.model, messages: body.messages, system: body.system, tools: body.tools });
        return counted.input_tokens;
      } catch (error) {
        logger.warn('count_tokens failed; using the estimate', { error: (error as Error).message });
        return countRequestTokens(request);
      }
    },
    contextWindow: (name) => contextWindowOf(name, options.contextWindow),
  });
}
