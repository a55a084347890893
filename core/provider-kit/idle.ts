import { ProviderError } from '../errors.js';

/**
 * Yields what `source` yields, but fails with `ASSISTANT_PROVIDER_IDLE_TIMEOUT` when no item arrives
 * within `idleMs` (SDK timeouts stop at the response headers, so a server that sends headers and
 * then stalls would otherwise be waited on forever). `onIdle` runs first, to abort the request.
 * Only the wait for the next item is timed, never the consumer's own work between items.
 */
export async function* withIdleTimeout<T>(source: AsyncIterable<T>, idleMs: number, onIdle: () => void, what = 'the response stream'): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const idle = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          onIdle();
          reject(
            new ProviderError('ASSISTANT_PROVIDER_IDLE_TIMEOUT', `${what} stalled: nothing arrived for ${idleMs} ms (provider.idleTimeoutMs)`, {
              retryable: true,
            }),
          );
        }, idleMs);
      });
      let result: IteratorResult<T>;
      try {
        result = await Promise.race([iterator.next(), idle]);
      } finally {
        clearTimeout(timer);
      }
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    // A pending `next()` may never settle after an abort; release without waiting for it.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
