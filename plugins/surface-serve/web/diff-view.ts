import { html } from './html.js';
import type { Approval } from './session-model.js';

interface Row {
  left?: { n: number; text: string; kind: 'same' | 'del' };
  right?: { n: number; text: string; kind: 'same' | 'add' };
}

/** Pairs a hunk's lines into side-by-side rows: context on both sides, removed lines beside the added ones. */
export function sideBySide(hunk: { oldStart: number; newStart: number; lines: string[] }): Row[] {
  const rows: Row[] = [];
  let oldN = hunk.oldStart;
  let newN = hunk.newStart;
  let dels: Row['left'][] = [];
  let adds: Row['right'][] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) rows.push({ left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const line of hunk.lines) {
    const mark = line[0];
    const text = line.slice(1);
    if (mark === '-') dels.push({ n: oldN++, text, kind: 'del' });
    else if (mark === '+') adds.push({ n: newN++, text, kind: 'add' });
    else if (mark === ' ') {
      flush();
      rows.push({ left: { n: oldN++, text, kind: 'same' }, right: { n: newN++, text, kind: 'same' } });
    } // "\ No newline at end of file" carries no line
  }
  flush();
  return rows;
}

const cell = (side: { n: number; text: string; kind: string } | undefined) =>
  side ? html`<td class="num">${side.n}</td><td class=${`code ${side.kind}`}>${side.text}</td>` : html`<td class="num"></td><td class="code empty"></td>`;

/** The diff of a proposed edit, old on the left, new on the right (text only: nothing in it is markup). */
export function DiffView({ diff }: { diff: NonNullable<Approval['diff']> }) {
  return html`<div class="diff">
    <div class="diff-path">${diff.path}${diff.partial ? html` <span class="muted">(the replaced text only)</span>` : ''}</div>
    <table class="side-by-side">
      <colgroup><col class="num" /><col /><col class="num" /><col /></colgroup>
      ${diff.hunks.map(
        (hunk) => html`<tbody>
          <tr class="hunk"><td colspan="4">@@ -${hunk.oldStart} +${hunk.newStart} @@</td></tr>
          ${sideBySide(hunk).map((row) => html`<tr>${cell(row.left)}${cell(row.right)}</tr>`)}
        </tbody>`,
      )}
    </table>
  </div>`;
}
