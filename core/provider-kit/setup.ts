import type { ProviderRequest, ProviderSettings } from '../types/provider.js';
import { resolveCredentials, type Credentials } from './credentials.js';
import type { ProviderTarget } from './failure.js';
import { responseCacheFrom, retryPolicyFrom, type CommonProviderOptions } from './options.js';
import type { ResponseCacheOptions } from './response-cache.js';
import type { RetryPolicy } from './retry.js';

const COMPLETE_TIMEOUT_MS = 10 * 60_000;

/** A provider's own defaults: where it lives and how long it waits. */
export interface ProviderDefaults {
  /** The plugin creating the provider (named on errors). */
  plugin: string;
  model: string;
  maxTokens: number;
  /** The provider's own endpoint, used when no base URL is configured. */
  baseURL: string;
  keyEnv: string;
  baseURLEnv: string;
  timeoutMs: number;
  idleTimeoutMs: number;
}

/** Everything a provider derives from its settings and options before it makes a request. */
export interface ProviderSetup {
  credentials: Credentials;
  model: string;
  baseURL: string;
  target: ProviderTarget;
  timeoutMs: number;
  /** Timeout of a non-streamed call, whose headers arrive only after the whole reply: `timeoutMs` when configured, else 10 minutes. */
  completeTimeoutMs: number;
  idleTimeoutMs: number;
  policy: RetryPolicy;
  responseCache?: ResponseCacheOptions;
  /** Fills in the model, output limit and temperature a request left open. */
  applyDefaults(request: ProviderRequest): ProviderRequest;
  /** Per-request HTTP headers from `request.extra.headers`. */
  headersOf(request: ProviderRequest): Record<string, string> | undefined;
}

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
  return {
    credentials,
    model,
    baseURL,
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
  };
}
