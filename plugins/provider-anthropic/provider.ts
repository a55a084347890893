import { lazyImport, type Logger, type Provider, type ProviderRequest, type ProviderSettings } from '../../core/index.js';
import {
  classifySdkError,
  countRequestTokens,
  createSdkProvider,
  resolveProviderSetup,
  sdkLogging,
  thinkingBudgetFrom,
  type CommonProviderOptions,
} from '../../core/kits/provider/index.js';
import type { MessagesClient } from './messages-client.js';
import { DEFAULT_MAX_TOKENS, DEFAULT_MODEL, contextWindowOf } from './models.js';

/** The `provider:` options of the Anthropic provider. */
export interface AnthropicOptions extends CommonProviderOptions {
  /** `estimate` (default, no request) or `api` (the count_tokens endpoint, falling back to the estimate). */
  tokenCount?: 'estimate' | 'api';
}

/** The plugin's name, on its hook taps and errors. */
export const PLUGIN = 'provider-anthropic';

/** The wire format and the SDK loader, imported on the first request: a session on another provider never loads them. */
const wireFormat = lazyImport(PLUGIN, 'wire format', () => import('./wire.js'));

/** Creates the Anthropic provider. Nothing is imported or connected until the first request. */
export function createAnthropicProvider(settings: ProviderSettings, options: AnthropicOptions, logger: Logger, env: NodeJS.ProcessEnv = process.env): Provider {
  const setup = resolveProviderSetup(
    settings,
    options,
    {
      plugin: PLUGIN,
      model: DEFAULT_MODEL,
      maxTokens: DEFAULT_MAX_TOKENS,
      baseURL: 'https://api.anthropic.com',
      keyEnv: 'ANTHROPIC_API_KEY',
      baseURLEnv: 'ANTHROPIC_BASE_URL',
      // Headers within 2 minutes; no stream silence over 1 minute (the API pings every few seconds).
      timeoutMs: 120_000,
      idleTimeoutMs: 60_000,
    },
    env,
  );
  const { credentials, baseURL, target, timeoutMs, headersOf } = setup;
  const authToken = credentials.apiKey ? undefined : env.ANTHROPIC_AUTH_TOKEN?.trim() || undefined;

  const prepare = (request: ProviderRequest): ProviderRequest => ({
    ...setup.applyDefaults(request),
    thinkingBudget: thinkingBudgetFrom(options, request.thinkingBudget),
  });
  const wire = async (request: ProviderRequest) => (await wireFormat()).toWireRequest(request, { maxTokens: request.maxTokens, thinkingBudget: request.thinkingBudget });

  return createSdkProvider<MessagesClient>({
    name: settings.name,
    capabilities: { images: true, thinking: true, promptCaching: true, parallelToolCalls: true },
    defaultModel: setup.model,
    policy: setup.policy,
    idleTimeoutMs: setup.idleTimeoutMs,
    endpoint: baseURL,
    endpointSource: setup.baseURLSource,
    responseCache: setup.responseCache,
    async connect() {
      const AnthropicClient = await (await wireFormat()).loadAnthropicSdk();
      const common = { baseURL, maxRetries: 0, timeout: timeoutMs, fetch: setup.fetch, ...sdkLogging(logger) };
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
      const { translateStream } = await wireFormat();
      const stream = await client.messages.create({ ...(await wire(request)), stream: true }, { signal, headers: headersOf(request) });
      return translateStream(stream, request.model);
    },
    async complete(client, request, signal) {
      const { translateMessage } = await wireFormat();
      return translateMessage(await client.messages.create(await wire(request), { signal, headers: headersOf(request), timeout: setup.completeTimeoutMs }));
    },
    classify: (error) => classifySdkError(error, target, timeoutMs),
    async countTokens(request, client) {
      if (options.tokenCount !== 'api') return countRequestTokens(request);
      try {
        const body = await wire(prepare({ ...request, maxTokens: 1 }));
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
