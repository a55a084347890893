/** One search hit, as every backend returns it. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** What a backend is asked. */
export interface SearchRequest {
  query: string;
  /** Most results wanted (a backend may return fewer). */
  maxResults: number;
  /** Aborted on Ctrl+C, a cancelled turn or the time limit. */
  signal: AbortSignal;
}

/**
 * A search backend: the built-in JSON one, or a module `webSearch.backend` names whose default
 * export (or `backend` export) has this shape. Throwing fails the call with the error's message.
 */
export interface SearchBackend {
  search(request: SearchRequest): Promise<SearchHit[]>;
}

/** True when `value` looks like a backend. */
export function isBackend(value: unknown): value is SearchBackend {
  return typeof value === 'object' && value !== null && typeof (value as SearchBackend).search === 'function';
}
