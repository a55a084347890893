import { ProviderError, isAssistantError } from '../errors.js';
import type { ProviderStreamEvent } from '../types/provider.js';
import { withIdleTimeout } from './idle.js';
import { abortedError, retryDelay, sleep, type RetryPolicy } from './retry.js';

/** How one logical model call is attempted, retried and timed. */
export interface ResilienceOptions {
  /** How often and how long to retry. */
  policy: RetryPolicy;
  /** The caller's signal: aborting it stops the current attempt and any wait. */
  signal?: AbortSignal;
  /** Turns whatever an attempt threw (SDK errors, `TypeError: terminated`) into a ProviderError. */
  classify(error: unknown): ProviderError;
}

/** Options for a streamed call. */
export interface ResilientStreamOptions extends ResilienceOptions {
  /** Longest wait between two stream events. */
  idleTimeoutMs: number;
  /** Opens one attempt (resolving once the response headers are in); `signal` aborts that attempt's HTTP request. */
  open(signal: AbortSignal): Promise<AsyncIterable<ProviderStreamEvent>>;
}

const CONTENT_EVENTS = new Set<ProviderStreamEvent['type']>(['text_delta', 'thinking_delta', 'tool_call_start', 'tool_call_delta', 'tool_call_end']);

/** An AbortController that also aborts when `parent` does; `release` unhooks it. */
function childController(parent?: AbortSignal): { controller: AbortController; release(): void } {
  const controller = new AbortController();
  if (!parent) return { controller, release: () => undefined };
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => parent.removeEventListener('abort', onAbort) };
}

/**
 * Decides what to do after attempt `tries` (1-based) failed: the delay before the next try, or a
 * throw. Exhausted retries and over-long `retry-after` waits keep the error's code and say so.
 */
function nextDelay(error: ProviderError, tries: number, policy: RetryPolicy): number {
  if (!error.retryable) throw error;
  if (tries > policy.attempts)
    throw new ProviderError(error.code, `${error.message} (gave up after ${tries} ${tries === 1 ? 'try' : 'tries'}; provider.retries.attempts is ${policy.attempts})`, {
      cause: error,
      status: error.status,
    });
  const delay = retryDelay(policy, tries, error.retryAfterMs);
  if (delay === undefined)
    throw new ProviderError(
      error.code,
      `${error.message}; the provider asked to wait ${Math.ceil(error.retryAfterMs! / 1000)} s, longer than provider.retries.maxRetryAfterMs (${policy.maxRetryAfterMs} ms)`,
      { cause: error, status: error.status },
    );
  return delay;
}

function toProviderError(raw: unknown, options: ResilienceOptions): ProviderError {
  if (options.signal?.aborted) return abortedError(options.signal);
  if (raw instanceof ProviderError) return raw;
  if (isAssistantError(raw) && raw.code === 'ASSISTANT_PROVIDER_ABORTED') return abortedError(options.signal);
  return options.classify(raw);
}

/**
 * Streams one model call with retries. An attempt that fails before it delivered any content
 * (text, thinking or tool call events) is retried cleanly after a `retry` event; one that fails
 * after content was delivered is reported as `ASSISTANT_PROVIDER_STREAM_CUT` and never retried,
 * so nothing the caller already showed or acted on is repeated. Each attempt's HTTP request is
 * aborted when the caller aborts, stops iterating, or the stream goes idle.
 */
export async function* resilientStream(options: ResilientStreamOptions): AsyncGenerator<ProviderStreamEvent> {
  for (let tries = 1; ; tries++) {
    if (options.signal?.aborted) throw abortedError(options.signal);
    const { controller, release } = childController(options.signal);
    let delivered = 0;
    let failure: ProviderError | undefined;
    try {
      const events = await options.open(controller.signal);
      for await (const event of withIdleTimeout(events, options.idleTimeoutMs, () => controller.abort())) {
        if (CONTENT_EVENTS.has(event.type)) delivered++;
        yield event;
      }
      return;
    } catch (raw) {
      failure = toProviderError(raw, options);
    } finally {
      controller.abort();
      release();
    }
    if (failure.code === 'ASSISTANT_PROVIDER_ABORTED') throw failure;
    if (delivered > 0)
      throw new ProviderError(
        'ASSISTANT_PROVIDER_STREAM_CUT',
        `the reply broke off after ${delivered} streamed ${delivered === 1 ? 'event' : 'events'}: ${failure.message}. It was not retried because part of it had already been delivered`,
        { cause: failure, status: failure.status },
      );
    const delayMs = nextDelay(failure, tries, options.policy);
    yield { type: 'retry', attempt: tries, delayMs, reason: failure.message, code: failure.code };
    await sleep(delayMs, options.signal);
  }
}

/** Runs a non-streamed call with the same retry rules (every failure happens before anything is delivered). */
export async function resilientCall<T>(
  options: ResilienceOptions & { call(signal: AbortSignal): Promise<T>; onRetry?(event: Extract<ProviderStreamEvent, { type: 'retry' }>): void },
): Promise<T> {
  for (let tries = 1; ; tries++) {
    if (options.signal?.aborted) throw abortedError(options.signal);
    const { controller, release } = childController(options.signal);
    let failure: ProviderError;
    try {
      return await options.call(controller.signal);
    } catch (raw) {
      failure = toProviderError(raw, options);
    } finally {
      release();
    }
    if (failure.code === 'ASSISTANT_PROVIDER_ABORTED') throw failure;
    const delayMs = nextDelay(failure, tries, options.policy);
    options.onRetry?.({ type: 'retry', attempt: tries, delayMs, reason: failure.message, code: failure.code });
    await sleep(delayMs, options.signal);
  }
}
