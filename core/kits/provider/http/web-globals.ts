/**
 * The web globals the provider SDK bundles (config/bundle-sdks.mjs, esbuild `inject`) use in place of
 * Node's: each first touch of the global `Headers`, `FormData` or `Request` makes Node load its
 * bundled undici (~50 ms of CPU, ~12 MiB), even for a mere `instanceof`. `fetch` itself is not
 * replaced: the providers pass the kit's (`nodeFetch`) to the clients, and the SDKs only call the
 * global one when given none. Not imported by the runtime itself.
 */
import { HttpHeaders } from './headers.js';
import { HttpResponse } from './response.js';

const tagged = (value: unknown, tag: string) => typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === `[object ${tag}]`;

/**
 * `instanceof FormData` (asked of every request body) without loading undici: a FormData can only
 * exist if something built one. Building one (file uploads only) builds the platform's.
 */
class LazyFormData {
  static [Symbol.hasInstance](value: unknown): boolean {
    return tagged(value, 'FormData');
  }

  constructor(...args: ConstructorParameters<typeof FormData>) {
    return new globalThis.FormData(...args) as unknown as LazyFormData;
  }
}

/** `instanceof Request` without loading undici; a `new Request` (never on the SDKs' paths) builds the platform's. */
class LazyRequest {
  static [Symbol.hasInstance](value: unknown): boolean {
    return tagged(value, 'Request');
  }

  constructor(...args: ConstructorParameters<typeof Request>) {
    return new globalThis.Request(...args) as unknown as LazyRequest;
  }
}

/**
 * `instanceof ReadableStream` (asked of every request body) without loading Node's web streams
 * (~1.4 ms): a stream can only exist if something built one, and a fetched body read with for-await
 * needs none. Building one builds the platform's. The bundles map `globalThis.ReadableStream` here.
 */
class LazyReadableStream {
  static [Symbol.hasInstance](value: unknown): boolean {
    return tagged(value, 'ReadableStream') && value instanceof globalThis.ReadableStream;
  }

  static from(...args: Parameters<typeof ReadableStream.from>): ReadableStream {
    return globalThis.ReadableStream.from(...args);
  }

  constructor(...args: ConstructorParameters<typeof ReadableStream>) {
    return new globalThis.ReadableStream(...args) as unknown as LazyReadableStream;
  }
}

export { HttpHeaders as Headers, HttpResponse as Response, LazyFormData as FormData, LazyRequest as Request, LazyReadableStream as ReadableStream };
