import type { Style } from '../terminal/style.js';

/**
 * Inline Markdown on one line: `code`, **bold**, *italic*, ~~strike~~, [links](url). Code spans
 * are found first so nothing inside them is touched. With colour off the text stays as written.
 */
export function renderInline(text: string, style: Style): string {
  if (!style.enabled) return text;
  let out = '';
  const code = /(`+)(.+?)\1/g;
  let last = 0;
  for (let m = code.exec(text); m; m = code.exec(text)) {
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
