import type { Style } from '../terminal/style.js';

/** How one language looks to a line-by-line highlighter. */
interface Grammar {
  keywords: Set<string>;
  literals: Set<string>;
  lineComment?: string;
  /** Delimiters that can span lines: block comments and multi-line strings. */
  blocks: Array<{ open: string; close: string; kind: 'comment' | 'string' }>;
  /** Single-line string quotes. */
  quotes: string;
}

const words = (s: string) => new Set(s.split(' '));
const C_LIKE_LITERALS = words('true false null undefined NaN Infinity this super self nil None True False');

const JS: Grammar = {
  keywords: words(
    'const let var function return if else for while do switch case break continue new delete typeof instanceof in of class extends import export from default as async await yield try catch finally throw interface type enum implements public private protected readonly static abstract declare namespace keyof satisfies void',
  ),
  literals: C_LIKE_LITERALS,
  lineComment: '//',
  blocks: [
    { open: '/*', close: '*/', kind: 'comment' },
    { open: '`', close: '`', kind: 'string' },
  ],
  quotes: `"'`,
};
const PYTHON: Grammar = {
  keywords: words('def class return if elif else for while in not and or is import from as with try except finally raise pass break continue lambda yield global nonlocal async await del assert match case'),
  literals: words('True False None self cls'),
  lineComment: '#',
  blocks: [
    { open: '"""', close: '"""', kind: 'string' },
    { open: "'''", close: "'''", kind: 'string' },
  ],
  quotes: `"'`,
};
const SHELL: Grammar = {
  keywords: words('if then else elif fi for while until do done case esac in function return export local readonly set unset shift exit source alias echo cd'),
  literals: words('true false'),
  lineComment: '#',
  blocks: [],
  quotes: `"'`,
};
const GO: Grammar = {
  keywords: words('func package import return if else for range switch case default break continue go defer select chan map struct interface type var const fallthrough goto'),
  literals: words('true false nil iota'),
  lineComment: '//',
  blocks: [
    { open: '/*', close: '*/', kind: 'comment' },
    { open: '`', close: '`', kind: 'string' },
  ],
  quotes: `"'`,
};
const RUST: Grammar = {
  keywords: words('fn let mut pub use mod struct enum impl trait for in if else match loop while return break continue move ref as where type const static crate super unsafe async await dyn'),
  literals: words('true false self Self None Some Ok Err'),
  lineComment: '//',
  blocks: [{ open: '/*', close: '*/', kind: 'comment' }],
  quotes: `"`,
};
const C_FAMILY: Grammar = {
  keywords: words(
    'int char float double long short unsigned signed void bool auto const static struct union enum typedef return if else for while do switch case break continue goto sizeof class public private protected virtual override new delete namespace using template typename final import package extends implements throws throw try catch finally interface var val fun',
  ),
  literals: C_LIKE_LITERALS,
  lineComment: '//',
  blocks: [{ open: '/*', close: '*/', kind: 'comment' }],
  quotes: `"'`,
};
const DATA: Grammar = { keywords: new Set(), literals: words('true false null yes no'), lineComment: undefined, blocks: [], quotes: `"` };
const YAML: Grammar = { ...DATA, lineComment: '#', quotes: `"'` };
const PLAIN: Grammar = { keywords: new Set(), literals: new Set(), blocks: [], quotes: '' };

const GRAMMARS: Record<string, Grammar> = {};
const alias = (grammar: Grammar, names: string) => names.split(' ').forEach((n) => (GRAMMARS[n] = grammar));
alias(JS, 'js javascript jsx ts typescript tsx mjs cjs');
alias(PYTHON, 'py python python3');
alias(SHELL, 'sh bash zsh shell console fish');
alias(GO, 'go golang');
alias(RUST, 'rs rust');
alias(C_FAMILY, 'c h cpp c++ cc hpp cs csharp java kotlin kt swift scala');
alias(DATA, 'json jsonc json5');
alias(YAML, 'yaml yml toml ini');

/** Colours code one line at a time, carrying block comments and multi-line strings across lines. */
export interface Highlighter {
  /** Colours a line and advances the state. */
  line(text: string): string;
  /** Colours a line without advancing the state (for a line still being streamed). */
  peek(text: string): string;
}

/** A highlighter for a fenced block's language tag; unknown languages are left uncoloured. */
export function createHighlighter(lang: string, style: Style): Highlighter {
  const name = lang.toLowerCase();
  if (!style.enabled) return { line: (t) => t, peek: (t) => t };
  if (name === 'diff' || name === 'patch') return { line: (t) => diffLine(t, style), peek: (t) => diffLine(t, style) };
  const grammar = GRAMMARS[name] ?? PLAIN;
  let open: Grammar['blocks'][number] | undefined;
  const run = (text: string, commit: boolean) => {
    const result = highlightLine(text, grammar, style, open);
    if (commit) open = result.open;
    return result.text;
  };
  return { line: (t) => run(t, true), peek: (t) => run(t, false) };
}

function diffLine(text: string, style: Style): string {
  if (text.startsWith('+')) return style.green(text);
  if (text.startsWith('-')) return style.red(text);
  if (text.startsWith('@@')) return style.cyan(text);
  return text;
}

const IDENT = /[A-Za-z_$][\w$]*/y;
const NUMBER = /(?:0[xob][\da-f_]+|\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?)n?/iy;

function highlightLine(
  text: string,
  g: Grammar,
  style: Style,
  open: Grammar['blocks'][number] | undefined,
): { text: string; open: Grammar['blocks'][number] | undefined } {
  let out = '';
  let i = 0;
  const paint = (kind: 'comment' | 'string', s: string) => (kind === 'comment' ? style.gray(s) : style.green(s));
  while (i < text.length) {
    if (open) {
      const end = text.indexOf(open.close, i);
      if (end < 0) return { text: out + paint(open.kind, text.slice(i)), open };
      out += paint(open.kind, text.slice(i, end + open.close.length));
      i = end + open.close.length;
      open = undefined;
      continue;
    }
    if (g.lineComment && text.startsWith(g.lineComment, i) && (g.lineComment !== '#' || i === 0 || /\s/.test(text[i - 1]!))) {
      out += style.gray(text.slice(i));
      break;
    }
    const block = g.blocks.find((b) => text.startsWith(b.open, i));
    if (block) {
      open = block;
      out += paint(block.kind, block.open);
      i += block.open.length;
      continue;
    }
    const ch = text[i]!;
    if (g.quotes.includes(ch)) {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      const s = text.slice(i, j + 1);
      // JSON/YAML keys read better in a colour of their own.
      const isKey = (g === DATA || g === YAML) && /^\s*:/.test(text.slice(j + 1));
      out += isKey ? style.cyan(s) : style.green(s);
      i = j + 1;
      continue;
    }
    IDENT.lastIndex = i;
    const ident = IDENT.exec(text);
    if (ident) {
      const w = ident[0];
      out += g.keywords.has(w) ? style.magenta(w) : g.literals.has(w) ? style.yellow(w) : w;
      i += w.length;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = /\d/.test(ch) ? NUMBER.exec(text) : null;
    if (num) {
      out += style.yellow(num[0]);
      i += num[0].length;
      continue;
    }
    out += ch;
    i++;
  }
  return { text: out, open };
}
