import { ProviderError } from '../../kernel/errors.js';

/** How failed requests are retried: exponential backoff, honouring the provider's `retry-after`. */
export interface RetryPolicy {
  /** Retries after the first try (5 → up to 6 tries). 0 disables retrying. */
  attempts: number;
  /** Delay before the first retry. */
  initialDelayMs: number;
  /** Each further retry waits this many times longer. */
  factor: number;
  /** Cap on the computed backoff (a `retry-after` may ask for more, up to `maxRetryAfterMs`). */
  maxDelayMs: number;
  /** A `retry-after` longer than this is not waited for: the error is reported at once. */
  maxRetryAfterMs: number;
  /** Fraction of each backoff delay taken off at random (0 = deterministic), so parallel agents do not retry in lockstep. */
  jitter: number;
}

/**
 * 5 retries (as Codex CLI gives a stream; a reply that broke off counts as one), 1 s initial, ×2,
 * 10 s cap: at most about 25 s of backoff; `retry-after` honoured up to 60 s.
 */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  attempts: 5,
  initialDelayMs: 1000,
  factor: 2,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  jitter: 0.2,
});

/**
 * The delay before retry number `retry` (1-based): the provider's `retry-after` when it gave one,
 * otherwise exponential backoff with jitter, capped. `undefined` when the provider asked for a
 * wait longer than the policy allows (the caller gives up).
 */
export function retryDelay(policy: RetryPolicy, retry: number, retryAfterMs?: number, random: () => number = Math.random): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return retryAfterMs <= policy.maxRetryAfterMs ? retryAfterMs : undefined;
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.factor ** (retry - 1));
  return Math.round(base * (1 - policy.jitter * random()));
}

/** Reads `retry-after-ms` / `retry-after` (seconds or an HTTP date) from response headers. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, or rejects with `ASSISTANT_PROVIDER_ABORTED` as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error every provider raises when the caller aborted. */
export function abortedError(signal?: AbortSignal): ProviderError {
  const reason = signal?.reason instanceof Error && signal.reason.name !== 'AbortError' ? `: ${signal.reason.message}` : '';
  return new ProviderError('ASSISTANT_PROVIDER_ABORTED', `the request was aborted${reason}`, { cause: signal?.reason });
}
