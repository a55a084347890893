/**
 * Host allow-list entries: `example.com` (that host, any port), `*.example.com` (its subdomains,
 * not the apex), `127.0.0.1:8080` (that host on that port only).
 */
export const HOST_PATTERN = '^(\\*\\.)?[a-z0-9.-]+(:[0-9]{1,5})?$|^\\[[0-9a-f:.]+\\](:[0-9]{1,5})?$';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** True when `url` is on a host the list allows. Only http and https URLs can be allowed. */
export function hostAllowed(url: URL, allowHosts: readonly string[]): boolean {
  if (!(url.protocol in DEFAULT_PORTS)) return false;
  const host = url.hostname.toLowerCase();
  const port = url.port || DEFAULT_PORTS[url.protocol]!;
  return allowHosts.some((entry) => {
    const match = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase())!;
    const [pattern, wantedPort] = [match[1]!, match[2]];
    if (wantedPort !== undefined && wantedPort !== port) return false;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
    return host === pattern;
  });
}

/** The URL a call asks for, or why it cannot be one. */
export function parseUrl(raw: unknown): URL | string {
  if (typeof raw !== 'string') return 'url must be a string';
  try {
    const url = new URL(raw);
    return url.protocol in DEFAULT_PORTS ? url : `only http and https URLs can be fetched, not ${url.protocol}`;
  } catch {
    return `"${raw}" is not an absolute URL (give one like https://example.com/path)`;
  }
}
