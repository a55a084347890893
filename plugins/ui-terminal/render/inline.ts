import type { Style } from '../terminal/style.js';

/**
 * Inline Markdown on one line: `code`, **bold**, *italic*, ~~strike~~, [links](url). Code spans
 * are found first so nothing inside them is touched. With colour off the text stays as written.
 */
export function renderInline(text: string, style: Style): string {
  if (!style.enabled) return text;
  // Code spans become placeholders while emphasis is applied, so `**`code`**` is bold code, not literal stars.
  if (text.includes(SLOT_OPEN)) return plainInline(text, style);
  const spans: string[] = [];
  const marked = text.replace(CODE, (_, _ticks: string, inner: string) => `${SLOT_OPEN}${spans.push(style.cyan(inner)) - 1}${SLOT_CLOSE}`);
  return emphasis(marked, style).replace(SLOT, (_, i: string) => spans[Number(i)]!);
}

const CODE = /(`+)(.+?)\1/g;
const SLOT_OPEN = '\uE000';
const SLOT_CLOSE = '\uE001';
const SLOT = /\uE000(\d+)\uE001/g;

/** Text that already holds the placeholder character: code spans first, emphasis between them only. */
function plainInline(text: string, style: Style): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(CODE)) {
    out += emphasis(text.slice(last, m.index), style) + style.cyan(m[2]!);
    last = m.index + m[0].length;
  }
  return out + emphasis(text.slice(last), style);
}

function emphasis(text: string, style: Style): string {
  return text
    .replace(/!?\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, url: string) => `${style.underline(label)} ${style.gray(`(${url})`)}`)
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, (_, _m, inner: string) => style.bold(inner))
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*]+?)(?<=\S)\*(?![\w*])/g, (_, pre: string, inner: string) => pre + style.italic(inner))
    .replace(/(^|[^\w])_(?=\S)([^_]+?)(?<=\S)_(?!\w)/g, (_, pre: string, inner: string) => pre + style.italic(inner))
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/g, (_, inner: string) => style.strike(inner));
}
