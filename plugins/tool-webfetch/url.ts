import { isIP } from 'node:net';

/** The URL rules WebFetch and its permission check share. */

/** A URL WebFetch may fetch, or why not. */
export function parseFetchUrl(text: unknown): { url: URL } | { problem: string } {
  if (typeof text !== 'string' || !text.trim()) return { problem: 'the url is empty' };
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { problem: `${JSON.stringify(text)} is not a URL; give a full http:// or https:// URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `WebFetch fetches http and https URLs only, not ${url.protocol.slice(0, -1)}:` };
  // Credentials in a URL hide the real host from a reader (http://example.com@evil.net/) and would be sent along.
  if (url.username || url.password) return { problem: `the URL carries a user name or password before its host (${url.hostname}); give the URL without them` };
  if (!url.hostname) return { problem: 'the URL has no host' };
  return { url };
}

/** A host as rules name it: lower case, punycode, no trailing dots (what docs/permissions.md describes). */
export function ruleHost(host: string): string {
  return host.toLowerCase().replace(/\.+$/, '');
}

/** What the configuration's allow rules say about WebFetch: every URL (a bare `WebFetch`), or these domains (normalized hosts). */
export interface WebFetchAllowance {
  any: boolean;
  domains: string[];
}

/** Reads the WebFetch allow rules of `permissions.allow` (malformed ones are refused at load by the permission rules). */
export function webFetchAllowance(allow: readonly unknown[] | undefined): WebFetchAllowance {
  const out: WebFetchAllowance = { any: false, domains: [] };
  for (const rule of allow ?? []) {
    if (typeof rule !== 'string') continue;
    if (rule.trim() === 'WebFetch') out.any = true;
    const host = /^WebFetch\(\s*domain:([^()\s]+)\s*\)$/.exec(rule.trim())?.[1];
    if (!host || /[/@?#*\\]/.test(host)) continue;
    try {
      out.domains.push(ruleHost(new URL(`http://${host}/`).hostname));
    } catch {
      // Not a host: the permission rules refuse it at load.
    }
  }
  return out;
}

/** True when an allow rule may let a call to `host` run without a person (so its address must be judged first). */
export function mayBeAllowed(host: string, allowance: WebFetchAllowance): boolean {
  const name = ruleHost(host);
  return allowance.any || allowance.domains.some((d) => name === d || (!isIP(name.replace(/^\[|\]$/g, '')) && name.endsWith('.' + d)));
}

const port = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** A redirect WebFetch follows on its own: the same host and port, or the same host moving from http to https on the default ports. */
export function sameHostRedirect(from: URL, to: URL): boolean {
  if (ruleHost(from.hostname) !== ruleHost(to.hostname) || to.username || to.password) return false;
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  if (from.protocol === to.protocol) return port(from) === port(to);
  return from.protocol === 'http:' && to.protocol === 'https:' && port(from) === '80' && port(to) === '443';
}
