import type OpenAI from 'openai';
import {
  classifySdkError,
  countRequestTokens,
  createSdkProvider,
  protocolFailure,
  resolveCredentials,
  responseCacheFrom,
  retryPolicyFrom,
  sdkLogging,
  type CommonProviderOptions,
  type Logger,
  type Provider,
  type ProviderRequest,
  type ProviderSettings,
  type ProviderTarget,
} from '../../core/index.js';
import { toWireRequest, type RequestShape } from './convert.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL, contextWindowOf } from './models.js';
import { tokenCounterFor } from './tokenizer.js';
import { WireProtocolError, translateCompletion, translateStream } from './translate.js';

/** The `provider:` options of the OpenAI provider. */
export interface OpenAIOptions extends CommonProviderOptions {
  /** Reasoning effort for reasoning models (o-series, gpt-5). */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Which max-tokens field to send; default `max_completion_tokens` for api.openai.com, `max_tokens` for other servers. */
  maxTokensField?: RequestShape['maxTokensField'];
}

const OPENAI_URL = 'https://api.openai.com/v1';
const DEFAULT_TIMEOUT_MS = 120_000;
/** Local servers may think for a while before the first token, without keep-alive events. */
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** Keyless servers still get a syntactically valid client; the header itself is removed. */
const NO_KEY = 'no-key';

/** The plugin's name, on its hook taps and errors. */
export const PLUGIN = 'provider-openai';

/** Creates the OpenAI (or OpenAI-compatible) provider. Nothing is imported or connected until the first request. */
export function createOpenAIProvider(settings: ProviderSettings, options: OpenAIOptions, logger: Logger, env: NodeJS.ProcessEnv = process.env): Provider {
  const keyEnv = options.apiKeyEnv ?? 'OPENAI_API_KEY';
  const credentials = resolveCredentials({ provider: settings.name, keyEnv, baseURLEnv: 'OPENAI_BASE_URL', configBaseURL: options.baseURL, env, plugin: PLUGIN });
  const model = settings.model ?? DEFAULT_MODEL;
  const baseURL = credentials.baseURL ?? OPENAI_URL;
  const target: ProviderTarget = { provider: settings.name, model, baseURL, keyEnv };
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const shape: RequestShape = {
    maxTokensField: options.maxTokensField ?? (baseURL.startsWith(OPENAI_URL) ? 'max_completion_tokens' : 'max_tokens'),
    reasoningEffort: options.reasoningEffort,
  };

  const prepare = (request: ProviderRequest): ProviderRequest => ({
    ...request,
    model: request.model || model,
    maxTokens: request.maxTokens || options.maxTokens || DEFAULT_MAX_TOKENS,
    temperature: request.temperature ?? options.temperature,
  });
  const headersOf = (request: ProviderRequest) => (request.extra?.headers as Record<string, string> | undefined) ?? undefined;

  return createSdkProvider<OpenAI>({
    name: settings.name,
    capabilities: { images: true, thinking: false, promptCaching: true, parallelToolCalls: true },
    defaultModel: model,
    policy: retryPolicyFrom(options),
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    endpoint: baseURL,
    responseCache: responseCacheFrom(options),
    async connect() {
      const { default: OpenAIClient } = await import('openai');
      return new OpenAIClient({
        baseURL,
        apiKey: credentials.apiKey ?? NO_KEY,
        // Organization and project come from the environment only when they belong to OpenAI itself.
        organization: null,
        project: null,
        maxRetries: 0,
        timeout: timeoutMs,
        defaultHeaders: { ...options.headers, ...(credentials.apiKey ? {} : { authorization: null }) },
        ...sdkLogging(logger),
      });
    },
    prepare,
    async openStream(client, request, signal) {
      const body = { ...toWireRequest(request, shape), stream: true as const, stream_options: { include_usage: true } };
      const stream = await client.chat.completions.create(body, { signal, headers: headersOf(request) });
      return translateStream(stream, request.model);
    },
    async complete(client, request, signal) {
      return translateCompletion(await client.chat.completions.create(toWireRequest(request, shape), { signal, headers: headersOf(request) }));
    },
    classify(error) {
      if (error instanceof WireProtocolError) return protocolFailure(error.message, target, error);
      return classifySdkError(error, target, timeoutMs);
    },
    async countTokens(request) {
      return countRequestTokens(request, await tokenCounterFor(request.model || model));
    },
    contextWindow: (name) => contextWindowOf(name, options.contextWindow),
  });
}
