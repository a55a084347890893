import { fetchFailed } from './fetch-errors.js';
import type { HttpHeaders } from './headers.js';
import type { EncodedBody } from './request-body.js';

/** One request of a fetch: a redirect makes the next from the previous. */
export interface Hop {
  url: URL;
  method: string;
  headers: HttpHeaders;
  body: EncodedBody;
}

export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** fetch gives up after 20 redirects. */
export const MAX_REDIRECTS = 20;

/**
 * Headers that carry credentials, dropped when a redirect leaves the origin. fetch drops
 * authorization, proxy-authorization and cookie; the providers' API-key headers (x-api-key:
 * Anthropic; api-key: Azure OpenAI) are credentials too, and go the same way here.
 */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key', 'api-key'];
/** The headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** The request a redirect asks for, following fetch's rules (the "HTTP-redirect fetch" steps). */
export function nextHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch (error) {
    throw fetchFailed(new Error(`invalid redirect location ${JSON.stringify(location)}`, { cause: error }));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fetchFailed(new Error(`redirect to a ${url.protocol} URL`));
  if (url.username || url.password) throw fetchFailed(new Error('redirect to a URL with credentials'));
  // A streamed body was read once and cannot be sent again (fetch fails the same way).
  if (status !== 303 && hop.body.stream) throw fetchFailed(new Error('cannot follow a redirect with a streamed request body'));
  const headers = new (hop.headers.constructor as typeof HttpHeaders)(hop.headers);
  let { method, body } = hop;
  if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
    method = 'GET';
    body = {};
    for (const name of BODY_HEADERS) headers.delete(name);
  }
  if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  return { url, method, headers, body };
}
