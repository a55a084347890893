// node:http, node:https and the web streams load on the first request, not with the provider kit:
// a run that sends none (--help, sessions) never pays for them.
import { once } from 'node:events';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { decodeBody } from './decode.js';
import { FetchBody } from './fetch-body.js';
import { abortReason, fetchFailed } from './fetch-errors.js';
import { HttpHeaders, type HeadersInit } from './headers.js';
import { MAX_REDIRECTS, REDIRECT_STATUSES, nextHop, type Hop } from './redirect.js';
import { encodeRequestBody } from './request-body.js';
import { HttpResponse } from './response.js';

/** The part of RequestInit the fetch honours; other fields (cache, keepalive, duplex...) are ignored. */
export interface FetchInit {
  /** GET unless given; the standard methods are upper-cased, as fetch does. */
  method?: string;
  /** A Headers (any implementation), an array of pairs or a record. */
  headers?: HeadersInit;
  /** A string, bytes, URLSearchParams, Blob, FormData, a web stream or an async iterable of bytes. */
  body?: unknown;
  /** Aborts the request, or the body while it streams, with the signal's reason. */
  signal?: AbortSignal | null;
  /** `follow` (default, at most 20), `manual` (the redirect is the response) or `error`. */
  redirect?: 'follow' | 'manual' | 'error';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** fetch upper-cases these methods and sends any other as written (so `patch` stays lower case). */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
/** Statuses whose response has no body, whatever the server sends. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function methodOf(method: string): string {
  if (!TOKEN.test(method)) throw new TypeError(`fetch: invalid method ${JSON.stringify(method)}`);
  return NORMALIZED_METHODS.has(method.toUpperCase()) ? method.toUpperCase() : method;
}

function urlOf(input: string | URL | { url: string }): URL {
  const text = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new TypeError(`Failed to parse URL from ${text}`, { cause: error });
  }
  if (url.username || url.password) throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${text}`);
  return url;
}

/** The wire headers of one request: the caller's, plus what fetch adds when they are absent. */
function wireHeaders(hop: Hop): Record<string, string> {
  const wire = hop.headers.toWire();
  wire['accept'] ??= '*/*';
  wire['accept-language'] ??= '*';
  wire['accept-encoding'] ??= 'gzip, deflate, br';
  wire['user-agent'] ??= 'node';
  delete wire['content-length'];
  if (hop.body.bytes) wire['content-length'] = String(hop.body.bytes.byteLength);
  else if (!hop.body.stream && (hop.method === 'POST' || hop.method === 'PUT')) wire['content-length'] = '0';
  return wire;
}

/** Sends one request; resolves when the response headers arrive. */
function send(hop: Hop, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (hop.url.protocol !== 'http:' && hop.url.protocol !== 'https:') return reject(fetchFailed(new Error(`unsupported protocol ${hop.url.protocol}`)));
    // The default agents: keep-alive, TLS verification on, NODE_EXTRA_CA_CERTS honoured. node:https
    // (and with it tls) loads on the first https request only: a local server never needs it.
    const request = hop.url.protocol === 'https:' ? process.getBuiltinModule('node:https').request : process.getBuiltinModule('node:http').request;
    let req: ClientRequest;
    try {
      req = request(hop.url, { method: hop.method, headers: wireHeaders(hop) });
    } catch (error) {
      return reject(fetchFailed(error));
    }
    const onAbort = () => {
      reject(abortReason(signal!));
      // With an error, so a body still being pumped stops waiting for 'drain'.
      req.destroy(new Error('request aborted'));
    };
    const settle = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('response', (response) => (settle(), resolve(response)));
    // `on`, not `once`: a socket error after the headers (the body's to report) must not go unhandled.
    req.on('error', (error) => (settle(), reject(fetchFailed(error))));
    if (hop.body.bytes) req.end(hop.body.bytes);
    else if (!hop.body.stream) req.end();
    else void pump(hop.body.stream, req);
  });
}

/** Streams a request body with backpressure; a failing source destroys the request (-> fetch failed). */
async function pump(chunks: AsyncIterable<Uint8Array>, req: ClientRequest): Promise<void> {
  try {
    for await (const chunk of chunks) if (!req.write(chunk)) await once(req, 'drain');
    req.end();
  } catch (error) {
    req.destroy(error as Error);
  }
}

function responseOf(raw: IncomingMessage, hop: Hop, redirected: boolean, signal: AbortSignal | undefined): HttpResponse {
  const status = raw.statusCode ?? 0;
  const headers = new HttpHeaders();
  try {
    for (let i = 0; i + 1 < raw.rawHeaders.length; i += 2) headers.append(raw.rawHeaders[i]!, raw.rawHeaders[i + 1]!);
    const noBody = hop.method === 'HEAD' || NULL_BODY_STATUSES.has(status);
    if (noBody) raw.resume();
    const body = noBody ? null : new FetchBody(raw, decodeBody(raw, headers.get('content-encoding') ?? undefined), signal);
    const url = new URL(hop.url);
    url.hash = '';
    return new HttpResponse(body, { status, statusText: raw.statusMessage ?? '', headers, url: url.href, redirected });
  } catch (error) {
    raw.destroy();
    throw fetchFailed(error);
  }
}

/**
 * `fetch` on node:http and node:https, for the provider SDKs (their `fetch` option): what they use
 * of it without the platform fetch, whose first use loads Node's bundled undici (~50 ms of CPU and
 * ~12 MiB per run). Follows redirects as fetch does (at most 20; credentials dropped when one leaves
 * the origin), decompresses gzip, deflate and br, rejects like fetch on abort and network errors.
 * Timeouts are the caller's signal's business, as with fetch.
 */
export async function nodeFetch(input: string | URL | { url: string }, init: FetchInit = {}): Promise<HttpResponse> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const url = urlOf(input);
  const method = methodOf(init.method ?? 'GET');
  const headers = new HttpHeaders(init.headers);
  const body = await encodeRequestBody(init.body);
  if ((body.bytes || body.stream) && (method === 'GET' || method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
  if (body.contentType && !headers.has('content-type')) headers.set('content-type', body.contentType);
  let hop: Hop = { url, method, headers, body };
  for (let redirects = 0; ; redirects++) {
    if (signal?.aborted) throw abortReason(signal);
    const raw = await send(hop, signal);
    if (signal?.aborted) {
      raw.destroy();
      throw abortReason(signal);
    }
    const location = raw.headers.location;
    if (!REDIRECT_STATUSES.has(raw.statusCode ?? 0) || location === undefined || init.redirect === 'manual') return responseOf(raw, hop, redirects > 0, signal);
    raw.resume();
    if (init.redirect === 'error') throw fetchFailed(new Error(`unexpected redirect to ${location}`));
    if (redirects >= MAX_REDIRECTS) throw fetchFailed(new Error('redirect count exceeded'));
    hop = nextHop(hop, raw.statusCode!, location);
  }
}
