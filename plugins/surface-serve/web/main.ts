import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, followEvents, loginFromFragment, type ApiError } from './api.js';
import { ApprovalsView } from './approvals-view.js';
import { html } from './html.js';
import { applyEvent, fromView, type SessionModel } from './session-model.js';
import { SessionList, type ListedSession } from './session-list.js';
import { SidePanel } from './side-panel.js';
import { TranscriptView } from './transcript-view.js';

function App() {
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string>();
  const [sessions, setSessions] = useState<ListedSession[]>([]);
  const [session, setSession] = useState<SessionModel>();
  const [prompt, setPrompt] = useState('');
  const stopEvents = useRef<(() => void) | undefined>(undefined);

  const fail = (e: unknown) => setError((e as ApiError)?.code ? `${(e as ApiError).code}: ${(e as ApiError).message}` : String(e));
  const refreshList = () => api<{ sessions: ListedSession[] }>('GET', '/api/sessions').then((r) => setSessions(r.sessions), fail);

  /** Shows a session; an attached one follows its events from where the view left off. */
  const show = (view: any) => {
    stopEvents.current?.();
    stopEvents.current = undefined;
    setSession(fromView(view));
    setError(undefined);
    if (view.attached && !view.lost_to)
      stopEvents.current = followEvents(view.id, view.after ?? 0, (name, data) => setSession((s) => (s && s.id === view.id ? applyEvent(s, name, data) : s)), () => open(view.id));
  };
  const open = (id: string) => api('GET', `/api/sessions/${id}`).then(show, fail);
  const attach = (takeOver: boolean) => session && api('POST', `/api/sessions/${session.id}/attach`, { take_over: takeOver }).then(show, fail).then(refreshList);
  const create = () => api('POST', '/api/sessions', {}).then(show, fail).then(refreshList);

  useEffect(() => {
    loginFromFragment()
      .then(() => api<{ sessions: ListedSession[] }>('GET', '/api/sessions'))
      .then((r) => (setSessions(r.sessions), setReady(true)))
      .catch((e: ApiError) => setError(e.status === 401 ? 'Not logged in: open the URL that `assistant serve` printed (it carries the token).' : `${e.code}: ${e.message}`));
  }, []);

  const send = (e: Event) => {
    e.preventDefault();
    if (!session || !prompt.trim()) return;
    api('POST', `/api/sessions/${session.id}/prompt`, { text: prompt }).then(() => (setPrompt(''), refreshList()), fail);
  };
  const answer = (id: string, behavior: string, scope: string) => session && api('POST', `/api/sessions/${session.id}/approvals/${id}`, { behavior, scope }).catch(fail);
  const interrupt = () => session && api('POST', `/api/sessions/${session.id}/interrupt`, {}).catch(fail);

  if (!ready) return html`<main class="login">${error ? html`<p class="error">${error}</p>` : html`<p>Connecting…</p>`}</main>`;
  const canPrompt = session?.attached && !session.lostTo;
  return html`<div class="layout">
    <${SessionList} sessions=${sessions} current=${session?.id} open=${open} create=${create} />
    <main class="session">
      ${error ? html`<p class="error" role="alert">${error}</p>` : null}
      ${session
        ? html`<header>
              <h2>${session.title || session.id.slice(0, 8)}</h2>
              <span class="state">${session.busy ? 'working…' : session.attached ? 'idle' : 'not attached'}</span>
              ${session.busy ? html`<button class="interrupt" onClick=${interrupt}>Interrupt</button>` : null}
              ${!session.attached ? html`<button class="attach" onClick=${() => attach(false)}>Attach</button>` : null}
              ${!session.attached || session.lostTo ? html`<button class="take-over" onClick=${() => attach(true)}>Take over</button>` : null}
            </header>
            ${session.lostTo ? html`<p class="lease-lost" role="status">This session is now active on ${session.lostTo}.</p>` : null}
            <${TranscriptView} items=${session.items} />
            <${ApprovalsView} approvals=${session.approvals} answer=${answer} />
            <form class="prompt" onSubmit=${send}>
              <textarea name="prompt" rows="3" placeholder=${canPrompt ? 'Ask for something…' : 'Attach the session to send prompts'} disabled=${!canPrompt} value=${prompt} onInput=${(e: Event) => setPrompt((e.target as HTMLTextAreaElement).value)}></textarea>
              <button type="submit" disabled=${!canPrompt || session.busy}>Send</button>
            </form>`
        : html`<p class="muted">Pick a session, or start a new one.</p>`}
    </main>
    ${session ? html`<${SidePanel} session=${session} />` : null}
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
