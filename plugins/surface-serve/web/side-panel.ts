import { html } from './html.js';
import type { SessionModel } from './session-model.js';

const MARK: Record<string, string> = { completed: '✔', in_progress: '▶', pending: '○' };
const tokens = (n: number | undefined) => (n === undefined ? '–' : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** The plan (TodoWrite) and what the session used: context of the last request, tokens, cost. */
export function SidePanel({ session }: { session: SessionModel }) {
  const usage = session.context.usage ?? {};
  return html`<aside class="side">
    <h3>Todo</h3>
    ${session.todos.length
      ? html`<ul class="todos">${session.todos.map((t) => html`<li class=${t.status}>${MARK[t.status] ?? '·'} ${t.content}</li>`)}</ul>`
      : html`<p class="muted">no plan yet</p>`}
    <h3>Context and cost</h3>
    <dl class="context">
      <dt>in context</dt><dd class="context-tokens">${tokens(session.context.context_tokens)}</dd>
      <dt>input</dt><dd>${tokens(usage.inputTokens)}</dd>
      <dt>output</dt><dd>${tokens(usage.outputTokens)}</dd>
      <dt>cache read</dt><dd>${tokens(usage.cacheReadTokens)}</dd>
      <dt>cost</dt><dd class="cost">${session.context.cost_usd === undefined ? '–' : `$${session.context.cost_usd.toFixed(4)}`}</dd>
    </dl>
  </aside>`;
}
