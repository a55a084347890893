import { ProviderError } from '../../kernel/errors.js';

/**
 * Yields what `source` yields, but fails with `ASSISTANT_PROVIDER_IDLE_TIMEOUT` when no item arrives
 * within `idleMs` (SDK timeouts stop at the response headers, so a server that sends headers and
 * then stalls would otherwise be waited on forever). `onIdle` runs first, to abort the request.
 * Only the wait for the next item is timed, never the consumer's own work between items.
 */
export async function* withIdleTimeout<T>(source: AsyncIterable<T>, idleMs: number, onIdle: () => void, what = 'the response stream'): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  let fail: ((error: ProviderError) => void) | undefined;
  let waiting = false;
  // One timer for the whole stream, re-armed per wait (streams run to thousands of events); it
  // may fire while the consumer works, which is not idleness and is ignored.
  const timer = setTimeout(() => {
    if (!waiting) return;
    onIdle();
    fail?.(new ProviderError('ASSISTANT_PROVIDER_IDLE_TIMEOUT', `${what} stalled: nothing arrived for ${idleMs} ms (provider.idleTimeoutMs)`, { retryable: true }));
  }, idleMs);
  const idle = new Promise<never>((_, reject) => (fail = reject));
  idle.catch(() => undefined);
  try {
    for (;;) {
      waiting = true;
      timer.refresh();
      const result = await Promise.race([iterator.next(), idle]);
      waiting = false;
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    clearTimeout(timer);
    // A pending `next()` may never settle after an abort; release without waiting for it.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
