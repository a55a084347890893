import { html } from './html.js';

export interface ListedSession {
  id: string;
  title?: string;
  last_active_at?: number;
  message_count?: number;
  in_use_by?: string;
  attached: boolean;
  lost_to?: string;
}

/** This project's sessions, newest first; the one open is marked. */
export function SessionList({ sessions, current, open, create }: { sessions: ListedSession[]; current?: string; open: (id: string) => void; create: () => void }) {
  return html`<nav class="sessions">
    <button class="new-session" onClick=${create}>New session</button>
    <ul>
      ${sessions.map(
        (s) => html`<li class=${s.id === current ? 'current' : ''} data-session=${s.id}>
          <a href="#" onClick=${(e: Event) => (e.preventDefault(), open(s.id))}>${s.title || s.id.slice(0, 8)}</a>
          <div class="muted">${s.attached ? (s.lost_to ? `moved to ${s.lost_to}` : 'open here') : s.in_use_by ? `in use on ${s.in_use_by}` : s.last_active_at ? new Date(s.last_active_at).toLocaleString() : ''}</div>
        </li>`,
      )}
    </ul>
  </nav>`;
}
