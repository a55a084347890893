/**
 * Provider-neutral helpers for provider plugins (built-in and third-party): retries with backoff,
 * the stream idle timer, the response cache, tool-input checks, token estimates, option checks, and
 * a fetch on node:http for the SDKs (the platform fetch loads undici: ~50 ms of CPU per run).
 */
export { DEFAULT_RETRY_POLICY, retryDelay, parseRetryAfter, sleep, abortedError, type RetryPolicy } from './retry.js';
export { httpFailure, networkFailure, protocolFailure, timeoutFailure, type HttpFailure, type ProviderTarget } from './failure.js';
export { withIdleTimeout } from './idle.js';
export { resilientStream, resilientCall, type ResilienceOptions, type ResilientStreamOptions } from './resilient.js';
export { parseToolInput, type ParsedToolInput } from './tool-input.js';
export { ReplyBuilder } from './reply-builder.js';
export {
  createResponseCache,
  replayOrRecord,
  DEFAULT_RESPONSE_CACHE,
  type ResponseCache,
  type ResponseCacheOptions,
} from './response-cache.js';
export { countRequestTokens, type TextTokenCounter } from './tokens.js';
export { estimateTextTokens, IMAGE_TOKENS } from '../../context/text-tokens.js';
export {
  providerOptionsSchema,
  validateProviderOptions,
  retryPolicyFrom,
  responseCacheFrom,
  thinkingBudgetFrom,
  DEFAULT_THINKING_BUDGET,
  type CommonProviderOptions,
} from './options.js';
export { resolveCredentials, type CredentialSources, type Credentials } from './credentials.js';
export { createSdkProvider, type SdkProviderAdapter } from './sdk-provider.js';
export { classifySdkError, WireProtocolError } from './sdk-errors.js';
export { sdkLogging, type SdkLogger } from './sdk-logger.js';
export { resolveProviderSetup, type ProviderDefaults, type ProviderSetup } from './setup.js';
export { nodeFetch, type FetchInit } from './http/index.js';
