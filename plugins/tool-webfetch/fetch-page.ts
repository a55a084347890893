import { connectHost, privateAddressOf, resolveHost, type HostPin, type ResolvedAddress } from './address.js';
import { kindOf, mediaType } from './content.js';
import { get, type HttpAnswer } from './http.js';
import { ruleHost, sameHostRedirect } from './url.js';

/** How a fetch is bounded, from the plugin's options. */
export interface FetchLimits {
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
  lookupTimeoutMs: number;
  /** Hosts an exact `WebFetch(domain:…)` allow rule names: they may resolve to private addresses. */
  explicitHosts: string[];
}

/** One redirect seen on the way. */
export interface Hop {
  from: string;
  to: string;
  status: number;
}

/** Where a fetch ended. */
export type FetchOutcome =
  | { kind: 'answer'; url: URL; answer: HttpAnswer; hops: Hop[] }
  | { kind: 'offHost'; url: URL; hops: Hop[]; location: string; status: number }
  | { kind: 'tooManyRedirects'; url: URL; hops: Hop[] }
  | { kind: 'private'; url: URL; address: string; hops: Hop[] };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Decides from the headers whether to read the body: not for a redirect, nor for a binary type. */
function accept(headers: HttpAnswer['headers'], status: number): string | undefined {
  if (REDIRECTS.has(status) && headers.location) return 'redirect';
  if (status >= 200 && status < 300 && kindOf(mediaType(headers['content-type'])) === 'binary') return 'binary';
  return undefined;
}

/**
 * Fetches `start`, following redirects within its host (each hop judged again: scheme, host, port),
 * stopping at one to another host. Every connection goes to addresses judged first: the pin the
 * permission check resolved, or a fresh lookup that must be public unless a rule names the host.
 */
export async function fetchPage(start: URL, pin: HostPin | undefined, limits: FetchLimits, signal: AbortSignal): Promise<FetchOutcome> {
  const hops: Hop[] = [];
  let url = start;
  let addresses: ResolvedAddress[] | undefined;
  for (;;) {
    if (!addresses) {
      if (pin && pin.host === url.hostname) addresses = pin.addresses;
      else {
        addresses = await resolveHost(connectHost(url), limits.lookupTimeoutMs);
        const address = privateAddressOf(addresses);
        if (address && !limits.explicitHosts.includes(ruleHost(url.hostname))) return { kind: 'private', url, address, hops };
      }
    }
    const answer = await get(url, { addresses, maxBytes: limits.maxBytes, signal, userAgent: limits.userAgent, accept });
    if (answer.stopped !== 'redirect') return { kind: 'answer', url, answer, hops };
    const location = String(answer.headers.location);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { kind: 'offHost', url, hops, location, status: answer.status };
    }
    if (!sameHostRedirect(url, next)) return { kind: 'offHost', url, hops, location: next.href, status: answer.status };
    hops.push({ from: url.href, to: next.href, status: answer.status });
    if (hops.length > limits.maxRedirects) return { kind: 'tooManyRedirects', url: next, hops };
    url = next;
  }
}
