import type OpenAI from 'openai';
import { lazyImport, type Logger, type Provider, type ProviderSettings } from '../../core/index.js';
import {
  classifySdkError,
  countRequestTokens,
  createSdkProvider,
  resolveProviderSetup,
  sdkLogging,
  type CommonProviderOptions,
} from '../../core/kits/provider/index.js';
import type { RequestShape } from './convert.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL, contextWindowOf } from './models.js';

/** The `provider:` options of the OpenAI provider. */
export interface OpenAIOptions extends CommonProviderOptions {
  /** Reasoning effort for reasoning models (o-series, gpt-5). */
  reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Which max-tokens field to send; default `max_completion_tokens` for api.openai.com, `max_tokens` for other servers. */
  maxTokensField?: RequestShape['maxTokensField'];
}

const OPENAI_URL = 'https://api.openai.com/v1';
/** Keyless servers still get a syntactically valid client; the header itself is removed. */
const NO_KEY = 'no-key';

/** The plugin's name, on its hook taps and errors. */
export const PLUGIN = 'provider-openai';

/** The wire format, tokenizer and SDK loader, imported on first use: a session on another provider never loads them. */
const wireFormat = lazyImport(PLUGIN, 'wire format', () => import('./wire.js'));

/** Creates the OpenAI (or OpenAI-compatible) provider. Nothing is imported or connected until the first request. */
export function createOpenAIProvider(settings: ProviderSettings, options: OpenAIOptions, logger: Logger, env: NodeJS.ProcessEnv = process.env): Provider {
  const setup = resolveProviderSetup(
    settings,
    options,
    {
      plugin: PLUGIN,
      model: DEFAULT_MODEL,
      maxTokens: DEFAULT_MAX_TOKENS,
      baseURL: OPENAI_URL,
      keyEnv: 'OPENAI_API_KEY',
      baseURLEnv: 'OPENAI_BASE_URL',
      timeoutMs: 120_000,
      // Local servers may think for a while before the first token, without keep-alive events.
      idleTimeoutMs: 120_000,
    },
    env,
  );
  const { credentials, baseURL, target, timeoutMs, headersOf } = setup;
  const shape: RequestShape = {
    maxTokensField: options.maxTokensField ?? (baseURL.startsWith(OPENAI_URL) ? 'max_completion_tokens' : 'max_tokens'),
    reasoningEffort: options.reasoningEffort,
  };

  return createSdkProvider<OpenAI>({
    name: settings.name,
    capabilities: { images: true, thinking: false, promptCaching: true, parallelToolCalls: true },
    defaultModel: setup.model,
    policy: setup.policy,
    idleTimeoutMs: setup.idleTimeoutMs,
    endpoint: baseURL,
    endpointSource: setup.baseURLSource,
    responseCache: setup.responseCache,
    async connect() {
      const OpenAIClient = await (await wireFormat()).loadOpenAiSdk();
      return new OpenAIClient({
        baseURL,
        apiKey: credentials.apiKey ?? NO_KEY,
        // Organization and project come from the environment only when they belong to OpenAI itself.
        organization: null,
        project: null,
        maxRetries: 0,
        timeout: timeoutMs,
        fetch: setup.fetch,
        defaultHeaders: { ...options.headers, ...(credentials.apiKey ? {} : { authorization: null }) },
        ...sdkLogging(logger),
      });
    },
    prepare: setup.applyDefaults,
    async openStream(client, request, signal) {
      const { toWireRequest, translateStream } = await wireFormat();
      const body = { ...toWireRequest(request, shape), stream: true as const, stream_options: { include_usage: true } };
      const stream = await client.chat.completions.create(body, { signal, headers: headersOf(request) });
      return translateStream(stream, request.model);
    },
    async complete(client, request, signal) {
      const { toWireRequest, translateCompletion } = await wireFormat();
      return translateCompletion(await client.chat.completions.create(toWireRequest(request, shape), { signal, headers: headersOf(request), timeout: setup.completeTimeoutMs }));
    },
    classify: (error) => classifySdkError(error, target, timeoutMs),
    async countTokens(request) {
      return countRequestTokens(request, await (await wireFormat()).tokenCounterFor(request.model || setup.model));
    },
    contextWindow: (name) => contextWindowOf(name, options.contextWindow),
  });
}
