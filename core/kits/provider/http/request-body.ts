import { ProviderError } from '../../../kernel/errors.js';

/** A request body ready for node:http: bytes (sent with a content-length) or chunks (sent chunked). */
export interface EncodedBody {
  /** Bytes known up front; a 307/308 redirect sends them again. */
  bytes?: Uint8Array;
  /** Chunks read once; a redirect that must resend them fails, as `fetch` fails with a stream body. */
  stream?: AsyncIterable<Uint8Array>;
  /** The content-type `fetch` would add when the caller set none. */
  contentType?: string;
}

const tagOf = (value: object) => Object.prototype.toString.call(value).slice(8, -1);

/** Uint8Array chunks of a stream or async iterable; strings are UTF-8 encoded, anything else is refused. */
async function* bytesOf(source: AsyncIterable<unknown>): AsyncIterable<Uint8Array> {
  for await (const chunk of source) {
    if (typeof chunk === 'string') yield Buffer.from(chunk);
    else if (ArrayBuffer.isView(chunk)) yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    else if (chunk instanceof ArrayBuffer) yield new Uint8Array(chunk);
    else throw new TypeError(`a request body stream yielded ${tagOf(Object(chunk))}, not bytes`);
  }
}

/**
 * Encodes a `fetch` body the way `fetch` does: strings as UTF-8 text, URLSearchParams as a form,
 * bytes as they are, Blobs with their type, FormData as multipart (serialized by the platform's
 * Response: that loads undici, but only for file uploads), streams and async iterables chunked.
 * `fetch` would send any other object as the text "[object Object]": that is refused instead.
 */
export async function encodeRequestBody(body: unknown): Promise<EncodedBody> {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string') return { bytes: Buffer.from(body), contentType: 'text/plain;charset=UTF-8' };
  if (typeof body !== 'object') return refuse(typeof body);
  if (body instanceof URLSearchParams) return { bytes: Buffer.from(body.toString()), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (ArrayBuffer.isView(body)) return { bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof ArrayBuffer) return { bytes: new Uint8Array(body) };
  const tag = tagOf(body);
  if (tag === 'Blob' || tag === 'File') {
    const blob = body as Blob;
    return { bytes: new Uint8Array(await blob.arrayBuffer()), contentType: blob.type || undefined };
  }
  if (tag === 'FormData') {
    const encoded = new globalThis.Response(body as FormData);
    return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? undefined };
  }
  if (Symbol.asyncIterator in body) return { stream: bytesOf(body as AsyncIterable<unknown>) };
  return refuse(tag);
}

function refuse(kind: string): never {
  throw new ProviderError(
    'ASSISTANT_PROVIDER_REQUEST_BODY',
    `the HTTP client cannot send a ${kind} as a request body (it sends strings, bytes, URLSearchParams, Blob, FormData and streams); ` +
      'a provider plugin that needs another kind can use the platform fetch (provider.httpClient: "platform")',
  );
}
