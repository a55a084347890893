import { ProviderError, isAssistantError } from '../../kernel/errors.js';
import type { ProviderStreamEvent } from '../../types/provider.js';
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
    throw new ProviderError(error.code, `${error.message} (${gaveUp(tries, policy.attempts)})`, {
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

/** "gave up after 6 tries: the first and 5 retries; provider.retries.attempts is 5": `attempts` counts retries, not tries. */
function gaveUp(tries: number, attempts: number): string {
  const retries = tries - 1;
  return `gave up after ${tries} ${tries === 1 ? 'try' : 'tries'}: the first and ${retries} ${retries === 1 ? 'retry' : 'retries'}; provider.retries.attempts is ${attempts}`;
}

function toProviderError(raw: unknown, options: ResilienceOptions): ProviderError {
  if (options.signal?.aborted) return abortedError(options.signal);
  if (raw instanceof ProviderError) return raw;
  if (isAssistantError(raw) && raw.code === 'ASSISTANT_PROVIDER_ABORTED') return abortedError(options.signal);
  return options.classify(raw);
}

/** The retry event of a failed attempt, or a throw when it may not be retried (the retry rules of {@link nextDelay}). */
function retryAfterFailure(failure: ProviderError, tries: number, delivered: number, policy: RetryPolicy): Extract<ProviderStreamEvent, { type: 'retry' }> {
  let delayMs: number;
  try {
    delayMs = nextDelay(failure, tries, policy);
  } catch (final) {
    if (delivered === 0) throw final;
    // Part of the reply was shown: say so, keeping why it could not be asked again.
    const why = final instanceof Error ? final.message : String(final);
    throw new ProviderError('ASSISTANT_PROVIDER_STREAM_CUT', `the reply broke off after ${delivered} streamed ${delivered === 1 ? 'event' : 'events'} and could not be retried: ${why}`, {
      cause: failure,
      status: failure.status,
    });
  }
  return { type: 'retry', attempt: tries, delayMs, reason: failure.message, code: failure.code, discard: delivered > 0 };
}

/** Whether attempt `tries` failing now would still leave a retry (so a broken tool call need not be delivered). */
function retryLeft(tries: number, policy: RetryPolicy): boolean {
  return tries <= policy.attempts;
}

/** A tool call whose input arrived cut off or unparsable: the reply is broken, like a reset. */
function brokenToolCall(event: Extract<ProviderStreamEvent, { type: 'tool_call_end' }>): ProviderError {
  return new ProviderError('ASSISTANT_TOOL_INPUT_INVALID', `the ${event.name} call ${event.id} arrived broken: ${event.inputError}`, { retryable: true });
}

/**
 * Streams one model call with retries. A failed attempt (an HTTP error, a reset or malformed event
 * mid-stream, a stall caught by the idle timer, a tool call whose input arrived cut off) is retried
 * within the policy after a `retry` event; `discard: true` on it says content of the failed attempt
 * was already yielded and must be dropped, since the next attempt streams the reply from the start.
 * Nothing of a broken attempt was acted on: tool calls run only after the `stop` event. A tool call
 * with broken input is delivered (flagged `inputError`, so it never runs) only when no retry is left.
 * When retries run out after content was delivered, the error is `ASSISTANT_PROVIDER_STREAM_CUT`.
 * Each attempt's HTTP request is aborted when the caller aborts, stops iterating, or the stream goes idle.
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
        if (event.type === 'tool_call_end' && event.inputError && retryLeft(tries, options.policy)) {
          failure = brokenToolCall(event);
          break;
        }
        if (CONTENT_EVENTS.has(event.type)) delivered++;
        yield event;
        if (event.type === 'stop') return;
      }
      // A stream that just ends, with no stop event, broke off too (whatever the adapter did not notice).
      failure ??= new ProviderError('ASSISTANT_PROVIDER_PROTOCOL', 'the response stream ended before the reply did (no stop event)', { retryable: true });
    } catch (raw) {
      failure = toProviderError(raw, options);
    } finally {
      controller.abort();
      release();
    }
    if (failure.code === 'ASSISTANT_PROVIDER_ABORTED') throw failure;
    const retry = retryAfterFailure(failure, tries, delivered, options.policy);
    yield retry;
    await sleep(retry.delayMs, options.signal);
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
    options.onRetry?.({ type: 'retry', attempt: tries, delayMs, reason: failure.message, code: failure.code, discard: false });
    await sleep(delayMs, options.signal);
  }
}
