import { DiffView } from './diff-view.js';
import { html } from './html.js';
import type { Approval } from './session-model.js';

/** The calls waiting for a person: what and why, the diff of an edit, and the answers. */
export function ApprovalsView({ approvals, answer }: { approvals: Approval[]; answer: (id: string, behavior: 'allow' | 'deny', scope: string) => void }) {
  if (!approvals.length) return null;
  return html`<section class="approvals">
    ${approvals.map(
      (a) => html`<div class="approval" data-approval=${a.approval_id}>
        <div class="approval-head"><strong>${a.tool}</strong> needs your approval: ${a.reason}</div>
        ${a.diff ? html`<${DiffView} diff=${a.diff} />` : html`<pre class="input">${JSON.stringify(a.input, null, 2)}</pre>`}
        <div class="buttons">
          <button class="allow-once" onClick=${() => answer(a.approval_id, 'allow', 'once')}>Allow once</button>
          <button class="allow-session" onClick=${() => answer(a.approval_id, 'allow', 'session')}>Allow for this session</button>
          <button class="allow-always" title=${a.suggested_rule ?? ''} onClick=${() => answer(a.approval_id, 'allow', 'project')}>Always allow${a.suggested_rule ? ` ${a.suggested_rule}` : ''}</button>
          <button class="deny" onClick=${() => answer(a.approval_id, 'deny', 'once')}>Deny</button>
        </div>
      </div>`,
    )}
  </section>`;
}
