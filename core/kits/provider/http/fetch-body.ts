import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { abortReason, terminated } from './fetch-errors.js';

/** How the body ends, the same whichever way it is read. */
interface BodyEvents {
  chunk(bytes: Uint8Array): void;
  end(): void;
  fail(error: unknown): void;
}

/**
 * A fetched response's body: what `response.body` is. The provider SDKs read it with `for await`
 * (its async iterator), which here pulls the decoded socket stream directly. Any other use of the
 * web stream API (getReader, tee, pipeTo...) makes it a web ReadableStream first, the one a
 * platform fetch would give. The direct path skips a web stream's reader: its first release builds
 * Node's shared "Reader released" error in a fresh vm context (~1.7 ms once per process), and each
 * chunk's trip through its queue.
 * Either way: backpressure on the socket; an abort fails it with the signal's reason, a connection
 * lost mid-body with TypeError('terminated'); ending it early (return, cancel) closes the connection.
 */
export class FetchBody {
  #web: ReadableStream<Uint8Array> | undefined;
  #iterated = false;
  #settled = false;
  #detach: () => void = () => {};

  constructor(
    readonly raw: IncomingMessage,
    readonly decoded: Readable,
    readonly signal: AbortSignal | undefined,
  ) {}

  get [Symbol.toStringTag](): string {
    return 'ReadableStream';
  }

  get locked(): boolean {
    return this.#iterated || (this.#web?.locked ?? false);
  }

  /** Listens to the socket stream; `events` hears each chunk and how it ends, once. */
  #wire(events: BodyEvents): void {
    const { raw, decoded, signal } = this;
    const onAbort = () => settle(() => events.fail(abortReason(signal!)), true);
    const settle = (then: () => void, destroy: boolean) => {
      if (this.#settled) return;
      this.#settled = true;
      signal?.removeEventListener('abort', onAbort);
      then();
      if (destroy) this.#destroy();
    };
    this.#detach = () => settle(() => undefined, true);
    decoded.on('data', (chunk: Buffer) => {
      if (!this.#settled) events.chunk(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    });
    decoded.once('end', () => settle(() => events.end(), false));
    decoded.once('error', (error) => settle(() => events.fail(terminated(error)), true));
    raw.once('close', () => {
      if (!raw.complete) settle(() => events.fail(terminated(new Error('other side closed'))), true);
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  }

  #destroy(): void {
    this.decoded.destroy();
    this.raw.destroy();
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.#web) return this.#web[Symbol.asyncIterator]();
    if (this.#iterated) throw new TypeError('ReadableStream is locked');
    this.#iterated = true;
    const { decoded } = this;
    const queue: Uint8Array[] = [];
    let ended = false;
    let failure: { error: unknown } | undefined;
    let wake: (() => void) | undefined;
    const notify = () => {
      const resume = wake;
      wake = undefined;
      resume?.();
    };
    this.#wire({
      chunk(bytes) {
        queue.push(bytes);
        decoded.pause(); // one chunk ahead of the reader, as a web stream's default queue keeps
        notify();
      },
      end() {
        ended = true;
        notify();
      },
      fail(error) {
        failure = { error };
        queue.length = 0; // as a web stream errored: what was queued is not read
        notify();
      },
    });
    const step = async (): Promise<IteratorResult<Uint8Array>> => {
      for (;;) {
        if (queue.length) {
          const value = queue.shift()!;
          if (!queue.length && !ended && !failure) decoded.resume();
          return { value, done: false };
        }
        if (failure) throw failure.error;
        if (ended) return { value: undefined, done: true };
        decoded.resume();
        await new Promise<void>((resolve) => (wake = resolve));
      }
    };
    // Calls one after another, as an async generator's are: each waits for the one before.
    let last: Promise<unknown> = Promise.resolve();
    return {
      next: () => {
        const result = last.then(step);
        last = result.catch(() => undefined);
        return result;
      },
      return: async (): Promise<IteratorResult<Uint8Array>> => {
        queue.length = 0;
        ended = true;
        this.#detach();
        return { value: undefined, done: true };
      },
    };
  }

  /** The body as a web ReadableStream (made on first use of the web API, then used for everything). */
  #stream(): ReadableStream<Uint8Array> {
    if (this.#web) return this.#web;
    if (this.#iterated) throw new TypeError('ReadableStream is locked');
    const { decoded } = this;
    this.#web = new ReadableStream<Uint8Array>({
      start: (controller) =>
        this.#wire({
          chunk(bytes) {
            controller.enqueue(bytes);
            if ((controller.desiredSize ?? 1) <= 0) decoded.pause();
          },
          end: () => controller.close(),
          fail: (error) => controller.error(error),
        }),
      pull() {
        decoded.resume();
      },
      cancel: () => this.#detach(),
    });
    return this.#web;
  }

  getReader(...args: Parameters<ReadableStream<Uint8Array>['getReader']>): ReturnType<ReadableStream<Uint8Array>['getReader']> {
    return this.#stream().getReader(...args);
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.#iterated) return Promise.reject(new TypeError('ReadableStream is locked'));
    return this.#stream().cancel(reason);
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.#stream().tee();
  }

  pipeTo(...args: Parameters<ReadableStream<Uint8Array>['pipeTo']>): Promise<void> {
    return this.#stream().pipeTo(...args);
  }

  pipeThrough(...args: Parameters<ReadableStream<Uint8Array>['pipeThrough']>): ReturnType<ReadableStream<Uint8Array>['pipeThrough']> {
    return this.#stream().pipeThrough(...args);
  }

  values(options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> {
    return (this.#stream() as unknown as { values(o?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> }).values(options);
  }
}
