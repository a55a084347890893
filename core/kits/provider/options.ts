import { ProviderError } from '../../kernel/errors.js';
import type { JsonSchema } from '../../types/json-schema.js';
import type { ProviderSettings } from '../../types/provider.js';
import { compileSchema, describeSchemaErrors } from '../../util/json-validate.js';
import { DEFAULT_RESPONSE_CACHE, type ResponseCacheOptions } from './response-cache.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

/** The `provider:` options every built-in provider understands (plugins may add their own). */
export interface CommonProviderOptions {
  /** Where to send requests; for OpenAI-compatible local servers usually `http://127.0.0.1:PORT/v1`. */
  baseURL?: string;
  /** The environment variable holding the API key (keys never live in config files). */
  apiKeyEnv?: string;
  /** Output token limit per reply. */
  maxTokens?: number;
  /** Sampling temperature sent when a request sets none. */
  temperature?: number;
  /** Extended thinking: `true` for the default budget, or a budget in tokens. */
  thinking?: boolean | { budgetTokens: number };
  /** Overrides of the retry policy (attempts, delays, jitter). */
  retries?: Partial<RetryPolicy>;
  /** Longest wait for the response headers (the SDK's own timeout). */
  timeoutMs?: number;
  /** Longest wait between two stream events (our own timer: SDK timeouts stop at the headers). */
  idleTimeoutMs?: number;
  /** Answer identical requests from memory: `true` for 100 entries / 10 min. Off by default. */
  responseCache?: boolean | Partial<ResponseCacheOptions>;
  /** The model's context window, for models the provider does not know (local servers). */
  contextWindow?: number;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /**
   * `builtin` (default): the kit's fetch on node:http/https. `platform`: Node's global fetch (undici),
   * for setups that patch or replace it (proxy agents, custom CA handling in a `--import` hook).
   */
  httpClient?: 'builtin' | 'platform';
}

/** JSON Schema of {@link CommonProviderOptions}; `extra` adds a provider's own keys. */
export function providerOptionsSchema(extra: Record<string, JsonSchema> = {}): JsonSchema {
  const ms = { type: 'integer', minimum: 1 };
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      baseURL: { type: 'string', pattern: '^https?://' },
      apiKeyEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      maxTokens: { type: 'integer', minimum: 1 },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
      thinking: {
        anyOf: [
          { type: 'boolean' },
          { type: 'object', additionalProperties: false, required: ['budgetTokens'], properties: { budgetTokens: { type: 'integer', minimum: 1024 } } },
        ],
      },
      retries: {
        type: 'object',
        additionalProperties: false,
        properties: {
          attempts: { type: 'integer', minimum: 0, maximum: 20 },
          initialDelayMs: { type: 'integer', minimum: 0 },
          factor: { type: 'number', minimum: 1 },
          maxDelayMs: { type: 'integer', minimum: 0 },
          maxRetryAfterMs: { type: 'integer', minimum: 0 },
          jitter: { type: 'number', minimum: 0, maximum: 1 },
        },
      },
      timeoutMs: ms,
      idleTimeoutMs: ms,
      responseCache: {
        anyOf: [
          { type: 'boolean' },
          { type: 'object', additionalProperties: false, properties: { max: { type: 'integer', minimum: 1 }, ttlMs: ms } },
        ],
      },
      contextWindow: { type: 'integer', minimum: 1024 },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      httpClient: { enum: ['builtin', 'platform'] },
      ...extra,
    },
  };
}

/**
 * Validates the options under `provider:` (everything but `name` and `model`) with ajv; a bad value
 * is reported with its JSON path (`/provider/retries/attempts: must be integer`).
 */
export function validateProviderOptions<T extends CommonProviderOptions>(settings: ProviderSettings, schema: JsonSchema, plugin?: string): T {
  const options = structuredClone(settings.options);
  const validate = compileSchema(schema);
  if (!validate(options)) {
    const lines = describeSchemaErrors(validate.errors, options, '/provider', suggestable(schema));
    const first = validate.errors?.[0];
    const unknownKey = first?.keyword === 'additionalProperties' ? `/${(first.params as { additionalProperty: string }).additionalProperty}` : '';
    const file = settings.sourceOf?.(`/provider${first?.instancePath ?? ''}${unknownKey}`);
    throw new ProviderError(
      'ASSISTANT_PROVIDER_OPTIONS_INVALID',
      `invalid provider options for "${settings.name}"${file ? ` in ${file}` : ''}:\n  ${lines.join('\n  ')}\n(see docs/providers.md for every option)`,
      { plugin, ...(file ? { file } : {}) },
    );
  }
  return options as T;
}

/** The schema as seen for suggestions: `name` and `model` sit beside the options under `provider:` (`nmae` → `name`). */
function suggestable(schema: JsonSchema): JsonSchema {
  const properties = (schema as { properties?: Record<string, unknown> }).properties ?? {};
  return { ...(schema as object), properties: { name: {}, model: {}, ...properties } } as JsonSchema;
}

/** The retry policy the options ask for. */
export function retryPolicyFrom(options: CommonProviderOptions): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...options.retries };
}

/** The response cache settings, or `undefined` when it is off (the default). */
export function responseCacheFrom(options: CommonProviderOptions): ResponseCacheOptions | undefined {
  const value = options.responseCache;
  if (!value) return undefined;
  return value === true ? { ...DEFAULT_RESPONSE_CACHE } : { ...DEFAULT_RESPONSE_CACHE, ...value };
}

/** Default thinking budget when `thinking: true`. */
export const DEFAULT_THINKING_BUDGET = 8000;

/** The thinking budget for a request: the request's own, else the configured one, else off. */
export function thinkingBudgetFrom(options: CommonProviderOptions, requested?: number): number | undefined {
  if (requested !== undefined) return requested > 0 ? requested : undefined;
  if (options.thinking === true) return DEFAULT_THINKING_BUDGET;
  if (options.thinking && typeof options.thinking === 'object') return options.thinking.budgetTokens;
  return undefined;
}
