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

/** The hosts `WebFetch(domain:<host>)` allow rules name exactly: the only rules that let WebFetch reach a private address unasked. */
export function explicitHosts(allow: readonly unknown[] | undefined): string[] {
  const hosts: string[] = [];
  for (const rule of allow ?? []) {
    const host = typeof rule === 'string' ? /^WebFetch\(\s*domain:([^()\s]+)\s*\)$/.exec(rule.trim())?.[1] : undefined;
    if (!host || /[/@?#*\\]/.test(host)) continue;
    try {
      hosts.push(ruleHost(new URL(`http://${host}/`).hostname));
    } catch {
      // Not a host: the permission rules refuse it at load.
    }
  }
  return hosts;
}

const port = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');

/** A redirect WebFetch follows on its own: the same host and port, or the same host moving from http to https on the default ports. */
export function sameHostRedirect(from: URL, to: URL): boolean {
  if (ruleHost(from.hostname) !== ruleHost(to.hostname) || to.username || to.password) return false;
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  if (from.protocol === to.protocol) return port(from) === port(to);
  return from.protocol === 'http:' && to.protocol === 'https:' && port(from) === '80' && port(to) === '443';
}
