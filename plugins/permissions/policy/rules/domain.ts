import { isIP } from 'node:net';

/**
 * `WebFetch(domain:example.com)` rules. Hosts are compared as a URL parser sees them (the same
 * WHATWG parser the fetch uses): lower case, IDN as punycode, IPv4 in its canonical dotted form
 * (`0x7f.1` is `127.0.0.1`), userinfo not part of the host (`http://example.com@evil.net/` is
 * evil.net), trailing dots dropped, ports ignored. A rule covers its host and the host's
 * subdomains; an IP address covers only itself.
 */

const trimDots = (host: string) => host.replace(/\.+$/, '');
const unbracket = (host: string) => (host.startsWith('[') ? host.slice(1, -1) : host);

/** The host a `domain:` specifier names, normalized; undefined when it is not a bare host (a port, path, userinfo, wildcard or space). */
export function ruleDomain(specifier: string): string | undefined {
  const raw = specifier.trim();
  if (!raw || /[\s/\\@?#*%]/.test(raw)) return undefined;
  if (raw.includes(':') && !/^\[[0-9a-f:.]+\]$/i.test(raw)) return undefined;
  try {
    const host = trimDots(new URL(`http://${raw}/`).hostname);
    return host && !host.startsWith('.') ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The host of a URL the call names, normalized as rules are; undefined when it is not a URL with a host. */
export function urlHost(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const host = trimDots(new URL(url).hostname);
    return host || undefined;
  } catch {
    return undefined;
  }
}

/** True when `host` is the rule's domain or one of its subdomains (names only: `10.0.0.1` is not "in" `0.0.1`). */
export function hostInDomain(host: string, domain: string): boolean {
  if (host === domain) return true;
  if (isIP(unbracket(host)) || isIP(unbracket(domain))) return false;
  return host.endsWith('.' + domain);
}
