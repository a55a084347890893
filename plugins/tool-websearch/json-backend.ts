import type { SearchBackend, SearchHit } from './backend.js';

/** Settings of the built-in backend: a JSON search API reached by URL, with a key from the environment. */
export interface JsonBackendOptions {
  /** The endpoint, e.g. `https://api.search.brave.com/res/v1/web/search` or `http://127.0.0.1:8888/search`. */
  url: string;
  /** Parameter carrying the query. */
  queryParam: string;
  /** Parameter carrying the number of results wanted ('' to send none). */
  countParam: string;
  /** Fixed parameters (SearXNG wants `format: json`). */
  params: Record<string, string>;
  /** Environment variable holding the key ('' for an API that needs none). */
  apiKeyEnv: string;
  /** Header the key goes in: `Authorization` sends `Bearer <key>`, any other header the bare key. */
  apiKeyHeader: string;
}

type Row = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

/** The result rows in the common shapes: Brave (`web.results`), SearXNG and most others (`results`), Google (`items`). */
function rowsOf(body: unknown): Row[] | undefined {
  const object = (body ?? {}) as Row;
  const candidates = [(object.web as Row | undefined)?.results, object.results, object.items, body];
  const found = candidates.find(Array.isArray) as unknown[] | undefined;
  return found?.filter((r): r is Row => typeof r === 'object' && r !== null);
}

function hitOf(row: Row): SearchHit | undefined {
  const url = str(row.url) || str(row.link) || str(row.href);
  if (!/^https?:\/\//i.test(url)) return undefined;
  const plain = (text: string) => text.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
  return { url, title: plain(str(row.title) || str(row.name) || url), snippet: plain(str(row.description) || str(row.snippet) || str(row.content)) };
}

/** The built-in backend. The key is read per search, so a missing one is a clear error result, not a failed start. */
export function jsonBackend(options: JsonBackendOptions, env: NodeJS.ProcessEnv): SearchBackend {
  return {
    async search({ query, maxResults, signal }) {
      const url = new URL(options.url);
      for (const [key, value] of Object.entries(options.params)) url.searchParams.set(key, value);
      url.searchParams.set(options.queryParam, query);
      if (options.countParam) url.searchParams.set(options.countParam, String(maxResults));
      const headers: Record<string, string> = { accept: 'application/json' };
      if (options.apiKeyEnv) {
        const key = env[options.apiKeyEnv];
        if (!key) throw new Error(`the environment variable ${options.apiKeyEnv} (webSearch.apiKeyEnv) holds no API key; set it and start again`);
        headers[options.apiKeyHeader] = options.apiKeyHeader.toLowerCase() === 'authorization' ? `Bearer ${key}` : key;
      }
      const response = await fetch(url, { headers, signal, redirect: 'error' });
      const text = await response.text();
      if (!response.ok) throw new Error(`${url.origin} answered ${response.status} ${response.statusText}: ${text.slice(0, 300)}`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`${url.origin} answered something that is not JSON: ${text.slice(0, 200)}`);
      }
      const rows = rowsOf(body);
      if (!rows) throw new Error(`${url.origin} answered JSON without a result list (looked for web.results, results and items)`);
      return rows.map(hitOf).filter((h): h is SearchHit => h !== undefined);
    },
  };
}
