import type { ProviderRequest, ProviderSettings } from '../../types/provider.js';
import { resolveCredentials, type Credentials } from './credentials.js';
import { nodeFetch } from './http/fetch.js';
import type { ProviderTarget } from './failure.js';
import { responseCacheFrom, retryPolicyFrom, type CommonProviderOptions } from './options.js';
import type { ResponseCacheOptions } from './response-cache.js';
import type { RetryPolicy } from './retry.js';

const COMPLETE_TIMEOUT_MS = 10 * 60_000;

/** A provider's own defaults: where it lives and how long it waits. */
export interface ProviderDefaults {
  /** The plugin creating the provider (named on errors). */
  plugin: string;
  /** The model used when the config names none. */
  model: string;
  /** Output tokens requested when the config sets none. */
  maxTokens: number;
  /** The provider's own endpoint, used when no base URL is configured. */
  baseURL: string;
  /** The environment variable holding the API key. */
  keyEnv: string;
  /** The environment variable that may hold the base URL. */
  baseURLEnv: string;
  /** Time limit for a response's headers. */
  timeoutMs: number;
  /** How long a stream may go quiet. */
  idleTimeoutMs: number;
}

/** Everything a provider derives from its settings and options before it makes a request. */
export interface ProviderSetup {
  /** The key and endpoint to use. */
  credentials: Credentials;
  /** The model requests default to. */
  model: string;
  /** The endpoint requests go to. */
  baseURL: string;
  /** Which setting chose `baseURL`: `provider.baseURL (<file>)`, `environment (<VAR>)` or `default`. */
  baseURLSource: string;
  /** Provider, model and endpoint, for error messages. */
  target: ProviderTarget;
  /** Time limit for a streamed response's headers. */
  timeoutMs: number;
  /** Timeout of a non-streamed call, whose headers arrive only after the whole reply: `timeoutMs` when configured, else 10 minutes. */
  completeTimeoutMs: number;
  /** How long a stream may go quiet. */
  idleTimeoutMs: number;
  /** The retry policy. */
  policy: RetryPolicy;
  /** The response cache settings; off when absent. */
  responseCache?: ResponseCacheOptions;
  /** Fills in the model, output limit and temperature a request left open. */
  applyDefaults(request: ProviderRequest): ProviderRequest;
  /** Per-request HTTP headers from `request.extra.headers`. */
  headersOf(request: ProviderRequest): Record<string, string> | undefined;
  /** The fetch to hand the SDK (`httpClient`): the kit's on node:http, or the platform's. */
  fetch: typeof fetch;
}

/** Node's global fetch, looked up per call: a fetch patched after start-up is the one used. */
const platformFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/** Resolves key, endpoint, model, timeouts, retry policy and response cache from settings and validated options. */
export function resolveProviderSetup(
  settings: ProviderSettings,
  options: CommonProviderOptions,
  defaults: ProviderDefaults,
  env: NodeJS.ProcessEnv = process.env,
): ProviderSetup {
  const keyEnv = options.apiKeyEnv ?? defaults.keyEnv;
  const credentials = resolveCredentials({ provider: settings.name, keyEnv, baseURLEnv: defaults.baseURLEnv, configBaseURL: options.baseURL, env, plugin: defaults.plugin });
  const model = settings.model ?? defaults.model;
  const baseURL = credentials.baseURL ?? defaults.baseURL;
  // The same order resolveCredentials takes: the config's baseURL, then the environment.
  const baseURLSource = options.baseURL
    ? `provider.baseURL (${settings.sourceOf?.('/provider/baseURL') ?? 'config'})`
    : credentials.baseURL
      ? `environment (${defaults.baseURLEnv})`
      : 'default';
  return {
    credentials,
    model,
    baseURL,
    baseURLSource,
    target: { provider: settings.name, model, baseURL, keyEnv },
    timeoutMs: options.timeoutMs ?? defaults.timeoutMs,
    completeTimeoutMs: options.timeoutMs ?? COMPLETE_TIMEOUT_MS,
    idleTimeoutMs: options.idleTimeoutMs ?? defaults.idleTimeoutMs,
    policy: retryPolicyFrom(options),
    responseCache: responseCacheFrom(options),
    applyDefaults: (request) => ({
      ...request,
      model: request.model || model,
      maxTokens: request.maxTokens || options.maxTokens || defaults.maxTokens,
      temperature: request.temperature ?? options.temperature,
    }),
    headersOf: (request) => (request.extra?.headers as Record<string, string> | undefined) ?? undefined,
    fetch: options.httpClient === 'platform' ? platformFetch : (nodeFetch as unknown as typeof fetch),
  };
}
