import type { ProviderError } from '../../kernel/errors.js';
import type {
  Provider,
  ProviderCapabilities,
  ProviderRequest,
  ProviderResponse,
  ProviderStreamEvent,
} from '../../types/provider.js';
import { resilientCall, resilientStream } from './resilient.js';
import { createResponseCache, replayOrRecord, type ResponseCacheOptions } from './response-cache.js';
import type { RetryPolicy } from './retry.js';

/** What a provider plugin supplies; {@link createSdkProvider} adds laziness, retries, idle timing and the response cache. */
export interface SdkProviderAdapter<Client> {
  /** The provider's name (what `provider.name` selects). */
  name: string;
  /** What the provider supports. */
  capabilities: ProviderCapabilities;
  /** The model used when the config names none. */
  defaultModel: string;
  /** The retry policy. */
  policy: RetryPolicy;
  /** How long a stream may go quiet before it is abandoned and retried. */
  idleTimeoutMs: number;
  /** Where requests go (part of the response cache key). */
  endpoint: string;
  /** Which setting chose `endpoint` (ProviderSetup.baseURLSource). */
  endpointSource?: string;
  /** Off when absent. */
  responseCache?: ResponseCacheOptions;
  /** Creates the SDK client; the SDK is imported here, on the first request, never at start-up. */
  connect(): Promise<Client>;
  /** Fills in defaults (model, max tokens, thinking) before a request is sent or cached. */
  prepare(request: ProviderRequest): ProviderRequest;
  /** Sends a streamed request; resolves once the response headers are in. */
  openStream(client: Client, request: ProviderRequest, signal: AbortSignal): Promise<AsyncIterable<ProviderStreamEvent>>;
  /** Sends a non-streamed request. */
  complete(client: Client, request: ProviderRequest, signal: AbortSignal): Promise<ProviderResponse>;
  /** Turns what the SDK threw into a coded ProviderError that says whether to retry. */
  classify(error: unknown): ProviderError;
  /** Counts a request's input tokens (the provider's endpoint, or a local tokenizer). */
  countTokens(request: Pick<ProviderRequest, 'model' | 'system' | 'messages' | 'tools'>, client: () => Promise<Client>): Promise<number>;
  /** The model's context window in tokens. */
  contextWindow(model: string): number;
  /** Releases the client's sockets. */
  disconnect?(client: Client): Promise<void> | void;
}

/** Builds a {@link Provider} around an SDK adapter. Creating it costs nothing: no import, no socket. */
export function createSdkProvider<Client>(adapter: SdkProviderAdapter<Client>): Provider {
  let client: Promise<Client> | undefined;
  const connect = (): Promise<Client> => {
    client ??= adapter.connect().catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
  const cache = adapter.responseCache ? createResponseCache(adapter.responseCache) : undefined;
  const scope = `${adapter.name}\0${adapter.endpoint}`;
  const classify = (error: unknown) => adapter.classify(error);

  return {
    name: adapter.name,
    endpoint: { url: adapter.endpoint, source: adapter.endpointSource ?? 'the provider' },
    capabilities: adapter.capabilities,
    defaultModel: adapter.defaultModel,
    stream(request, signal) {
      const prepared = adapter.prepare(request);
      return replayOrRecord(
        cache,
        () => cache!.keyFor(scope, prepared),
        () =>
          resilientStream({
            policy: adapter.policy,
            idleTimeoutMs: adapter.idleTimeoutMs,
            signal,
            classify,
            open: async (attemptSignal) => adapter.openStream(await connect(), prepared, attemptSignal),
          }),
      );
    },
    async complete(request, signal) {
      const prepared = adapter.prepare(request);
      const key = cache?.keyFor(`${scope}\0complete`, prepared);
      const hit = key ? cache!.get(key) : undefined;
      const stop = hit?.[hit.length - 1];
      if (stop?.type === 'stop') return { message: stop.message, usage: stop.usage, stopReason: stop.reason };
      const response = await resilientCall({
        policy: adapter.policy,
        signal,
        classify,
        call: async (attemptSignal) => adapter.complete(await connect(), prepared, attemptSignal),
      });
      if (key) cache!.set(key, [{ type: 'stop', reason: response.stopReason, message: response.message, usage: response.usage }]);
      return response;
    },
    countTokens: (request) => adapter.countTokens(request, connect),
    contextWindow: (model) => adapter.contextWindow(model),
    async close() {
      const current = client;
      client = undefined;
      if (current && adapter.disconnect) await adapter.disconnect(await current.catch(() => undefined as Client));
    },
  };
}
