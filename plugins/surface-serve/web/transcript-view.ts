import { html } from './html.js';
import { renderMarkdown } from './markdown.js';
import type { Item } from './session-model.js';

const summary = (input: Record<string, unknown>) => {
  const first = input.file_path ?? input.command ?? input.pattern ?? input.path ?? input.description;
  return typeof first === 'string' ? first : JSON.stringify(input).slice(0, 120);
};

function ItemView({ item }: { item: Item }) {
  switch (item.kind) {
    case 'user':
      return html`<div class="item user"><div class="who">you</div><div class="text">${item.text}</div></div>`;
    case 'assistant':
      // Sanitized HTML only (see markdown.ts); never the raw model text as markup.
      return html`<div class="item assistant"><div class="markdown" dangerouslySetInnerHTML=${{ __html: renderMarkdown(item.text) }}></div></div>`;
    case 'thinking':
      return html`<details class="item thinking"><summary>thinking</summary><div class="text">${item.text}</div></details>`;
    case 'tool':
      return html`<details class=${`item tool ${item.status}`} data-tool=${item.name}>
        <summary><span class="tool-name">${item.name}</span> <span class="tool-arg">${summary(item.input)}</span> <span class="status">${item.status}</span></summary>
        <pre class="input">${JSON.stringify(item.input, null, 2)}</pre>
        ${item.output !== undefined ? html`<pre class="output">${item.output}</pre>` : null}
      </details>`;
    case 'notice':
      return html`<div class=${`item notice ${item.level}`}>${item.text}</div>`;
    case 'result':
      return html`<div class="item notice warn">stopped: ${item.reason}${item.message ? ` (${item.message})` : ''}</div>`;
  }
}

export function TranscriptView({ items }: { items: Item[] }) {
  return html`<div class="transcript">${items.map((item) => html`<${ItemView} item=${item} />`)}</div>`;
}
