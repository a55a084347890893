/** Talking to `assistant serve`: JSON requests with the login cookie, and the session's event stream. */

export interface ApiError {
  code: string;
  message: string;
  status: number;
}

/** A JSON request; a non-2xx answer rejects with the server's `{ code, message }`. */
export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw { status: response.status, code: data?.error?.code ?? 'ASSISTANT_INTERNAL', message: data?.error?.message ?? response.statusText } satisfies ApiError;
  return data as T;
}

/**
 * Logs in with the token from the URL fragment (it never reaches the server's logs or history),
 * then removes it from the address bar. The server answers with an HttpOnly, SameSite=Strict cookie.
 */
export async function loginFromFragment(): Promise<void> {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, '', location.pathname);
  await api('POST', '/api/login', { token: decodeURIComponent(match[1]!) });
}

export const EVENT_NAMES = ['message', 'prompt', 'approval_request', 'approval_resolved', 'todos', 'context', 'state', 'lease_lost'] as const;

/**
 * Follows a session's events from `after`. EventSource reconnects by itself with Last-Event-ID, so a
 * dropped connection resumes exactly where it stopped; `reset` means the server no longer holds
 * what we missed, and the session must be loaded again.
 */
export function followEvents(sessionId: string, after: number, onEvent: (name: string, data: any) => void, onReset: () => void): () => void {
  const source = new EventSource(`/api/sessions/${sessionId}/events?after=${after}`);
  for (const name of EVENT_NAMES) source.addEventListener(name, (e) => onEvent(name, JSON.parse((e as MessageEvent).data)));
  source.addEventListener('reset', () => {
    source.close();
    onReset();
  });
  return () => source.close();
}
