// ReadableStream is the global one (node:stream/web's class, loaded on first use; not undici).
import { FetchBody } from './fetch-body.js';
import { HttpHeaders, type HeadersInit } from './headers.js';

type Bytes = Uint8Array<ArrayBuffer>;

/** What `new Response(body, init)` takes. */
export interface ResponseInit {
  status?: number;
  statusText?: string;
  headers?: HeadersInit;
}

/** What the fetch sets beyond ResponseInit. */
interface FetchedInit extends ResponseInit {
  url?: string;
  redirected?: boolean;
}

/** A stream of the given bytes, or of a UTF-8 string. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** The body and the content-type `new Response(body)` gives it, for the kinds the SDKs construct. */
function bodyOf(body: unknown): { stream: ReadableStream<Uint8Array> | FetchBody | null; contentType?: string } {
  if (body === undefined || body === null) return { stream: null };
  if (body instanceof FetchBody) return { stream: body };
  if (body instanceof ReadableStream) return { stream: body as ReadableStream<Uint8Array> };
  if (typeof body === 'string') return { stream: streamOf(Buffer.from(body)), contentType: 'text/plain;charset=UTF-8' };
  if (ArrayBuffer.isView(body)) return { stream: streamOf(new Uint8Array(body.buffer, body.byteOffset, body.byteLength)) };
  if (body instanceof ArrayBuffer) return { stream: streamOf(new Uint8Array(body)) };
  if (body instanceof URLSearchParams) return { stream: streamOf(Buffer.from(body.toString())), contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  // A stream from another realm or the platform's ReadableStream class: read it as an async iterable.
  if (typeof body === 'object' && Symbol.asyncIterator in body) return { stream: ReadableStream.from(body as AsyncIterable<Uint8Array>) };
  throw new TypeError(`Response: unsupported body type ${Object.prototype.toString.call(body)}`);
}

/**
 * The WHATWG `Response` the provider SDKs read: status, headers, url, the body as a web
 * ReadableStream (node:stream/web, which does not load undici) and the text()/json()/arrayBuffer()
 * readers, clone() by teeing the stream. Built by the fetch, or by the SDKs' `new Response(...)`.
 */
export class HttpResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HttpHeaders;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = 'basic';
  /** A fetched body (read as a web stream or directly) or a web stream. */
  #body: ReadableStream<Uint8Array> | FetchBody | null;
  #used = false;

  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Response]';
  }

  constructor(body?: unknown, init: FetchedInit = {}) {
    const status = init.status ?? 200;
    if (!Number.isInteger(status) || status < 200 || status > 599) throw new RangeError(`Response: status ${status} is outside 200-599`);
    this.status = status;
    this.statusText = init.statusText ?? '';
    this.headers = new HttpHeaders(init.headers);
    this.url = init.url ?? '';
    this.redirected = init.redirected ?? false;
    const { stream, contentType } = bodyOf(body);
    this.#body = stream;
    if (contentType && !this.headers.has('content-type')) this.headers.set('content-type', contentType);
  }

  get [Symbol.toStringTag](): string {
    return 'Response';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get body(): ReadableStream<Uint8Array> | null {
    // A FetchBody answers every ReadableStream method (making one when a method needs it).
    return this.#body as ReadableStream<Uint8Array> | null;
  }

  get bodyUsed(): boolean {
    return this.#used;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.#consume()).buffer;
  }

  async bytes(): Promise<Uint8Array> {
    return this.#consume();
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.#consume()], { type: this.headers.get('content-type') ?? '' });
  }

  async text(): Promise<string> {
    // UTF-8 with a leading BOM dropped and bad sequences replaced, as fetch decodes.
    return new TextDecoder('utf-8').decode(await this.#consume());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  clone(): HttpResponse {
    if (this.#used || this.#body?.locked) throw new TypeError('Response.clone: the body has already been read');
    const copy = new HttpResponse(null, this);
    if (this.#body) [this.#body, copy.#body] = this.#body.tee();
    return copy;
  }

  async #consume(): Promise<Bytes> {
    if (this.#used || this.#body?.locked) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    if (!this.#body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of this.#body) {
      chunks.push(chunk);
      size += chunk.byteLength;
    }
    // A fresh buffer of its own (Buffer.concat may hand out a slice of Node's shared pool).
    const all = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.byteLength;
    }
    return all;
  }
}
