import type { SearchHit } from './backend.js';

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.+$/, '');
  } catch {
    return '';
  }
};
const normalDomain = (domain: string) => domain.trim().toLowerCase().replace(/^\*\./, '').replace(/\.+$/, '');
const inDomain = (host: string, domain: string) => host === domain || host.endsWith('.' + domain);

/** The hits whose host is in one of `allowed` (when given) and in none of `blocked`. */
export function filterHits(hits: SearchHit[], allowed: string[] | undefined, blocked: string[] | undefined): SearchHit[] {
  const allow = (allowed ?? []).map(normalDomain).filter(Boolean);
  const block = (blocked ?? []).map(normalDomain).filter(Boolean);
  return hits.filter((hit) => {
    const host = hostOf(hit.url);
    if (!host || block.some((d) => inDomain(host, d))) return false;
    return !allow.length || allow.some((d) => inDomain(host, d));
  });
}

/** The hits as the model reads them: numbered, title, URL, snippet. */
export function formatHits(query: string, hits: SearchHit[]): string {
  if (!hits.length) return `No results for "${query}".`;
  const lines = hits.map((hit, i) => `${i + 1}. ${hit.title}\n   ${hit.url}${hit.snippet ? `\n   ${hit.snippet}` : ''}`);
  return `Results for "${query}":\n\n${lines.join('\n\n')}\n\nFetch a result with WebFetch to read it.`;
}
