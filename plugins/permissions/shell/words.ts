import type { SyntaxNode } from './parser.js';
import { DYNAMIC, type Arg } from './types.js';

/** What word evaluation needs from the walker. */
export interface WordScope {
  /** A variable's value: a string, null when only known at run time. */
  variable(name: string): string | null;
  /** The home directory for `~`, or null when unknown. */
  home: string | null;
  /** Analyzes a command or process substitution (it runs!) and returns its output when static. */
  substitution(node: SyntaxNode): string | null;
  /** Records a construct the evaluator does not understand. */
  unknown(what: string): void;
}

// Internal encoding: quoted characters are backslash-escaped, DYNAMIC marks run-time parts and
// SPLIT marks where an unquoted expansion will be split into several words.
const SPLIT = '\u0001';
const SPECIAL = /[\\{}*?[\],]/g;
const escapeQuoted = (text: string) => text.replace(SPECIAL, (c) => '\\' + c);
const MAX_WORDS = 256;

function expanded(value: string | null, quoted: boolean): string {
  if (value === null) return DYNAMIC;
  if (quoted) return escapeQuoted(value);
  // Unquoted expansion: split on whitespace, glob characters stay live (as bash does).
  return value.replace(/[\\{},]/g, (c) => '\\' + c).replace(/[ \t\n]+/g, SPLIT);
}

function unescapeWord(raw: string): string {
  // An unquoted backslash quotes the next character; a backslash-newline disappears.
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      if (next !== '\n') out += escapeQuoted(next);
    } else out += c;
  }
  return out;
}

function doubleQuoted(raw: string): string {
  // Inside "...", backslash only escapes $ ` " \ and newline.
  return escapeQuoted(raw.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)));
}

const ANSI_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

function ansiC(raw: string): string {
  const body = raw.slice(2, -1);
  const out = body.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|u[0-9a-fA-F]{1,4}|.)/g, (_m, e: string) => {
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (e[0] === 'u' && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ANSI_ESCAPES[e] ?? '\\' + e;
  });
  return escapeQuoted(out);
}

function expansionValue(node: SyntaxNode, scope: WordScope): string | null {
  // `${NAME}` only; `${NAME:-x}`, `${#NAME}`, `${NAME%x}` and the like are run-time values.
  const named = node.namedChildren;
  if (named.length === 1 && named[0]!.type === 'variable_name' && node.text === '${' + named[0]!.text + '}') return scope.variable(named[0]!.text);
  visitSubstitutions(node, scope);
  return null;
}

/** Runs the substitutions inside a node we otherwise treat as a run-time value. */
function visitSubstitutions(node: SyntaxNode, scope: WordScope): void {
  for (const child of node.namedChildren) {
    if (child.type === 'command_substitution' || child.type === 'process_substitution') scope.substitution(child);
    else visitSubstitutions(child, scope);
  }
}

function encode(node: SyntaxNode, scope: WordScope, quoted: boolean): string {
  switch (node.type) {
    case 'word':
    case 'extglob_pattern':
    case 'regex':
      return quoted ? escapeQuoted(node.text) : unescapeWord(node.text);
    case 'number':
    case 'special_variable_name':
      return quoted ? escapeQuoted(node.text) : node.text;
    case 'raw_string':
      return escapeQuoted(node.text.slice(1, -1));
    case 'ansi_c_string':
      return ansiC(node.text);
    case 'string':
    case 'translated_string': {
      let out = '';
      for (const child of node.namedChildren) out += child.type === 'string_content' ? doubleQuoted(child.text) : encode(child, scope, true);
      return out;
    }
    case 'concatenation': {
      let out = '';
      for (const child of node.namedChildren) out += encode(child, scope, quoted);
      // A concatenation can hide plain text between named children (e.g. `a"b"c` keeps `a`/`c` as words).
      return out;
    }
    case 'simple_expansion': {
      const name = node.namedChildren[0];
      return expanded(name && name.type === 'variable_name' ? scope.variable(name.text) : null, quoted);
    }
    case 'expansion':
      return expanded(expansionValue(node, scope), quoted);
    case 'command_substitution':
      return expanded(scope.substitution(node), quoted);
    case 'process_substitution':
      scope.substitution(node);
      return DYNAMIC;
    case 'arithmetic_expansion':
      visitSubstitutions(node, scope);
      return DYNAMIC;
    case 'brace_expression': {
      const [from, to] = node.namedChildren.map((n) => Number(n.text));
      if (from === undefined || to === undefined || !Number.isFinite(from) || !Number.isFinite(to) || Math.abs(to - from) > MAX_WORDS) return DYNAMIC;
      const step = from <= to ? 1 : -1;
      const items: string[] = [];
      for (let i = from; step > 0 ? i <= to : i >= to; i += step) items.push(String(i));
      return `{${items.join(',')}}`;
    }
    default:
      scope.unknown(`shell construct "${node.type}"`);
      visitSubstitutions(node, scope);
      return DYNAMIC;
  }
}

/** Expands `{a,b}` alternatives in an encoded word (escaped braces and commas are literal). */
function braceExpand(word: string, limit = MAX_WORDS): string[] {
  let depth = 0;
  let open = -1;
  const commas: number[] = [];
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '{') {
      if (depth === 0) {
        open = i;
        commas.length = 0;
      }
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0 && commas.length) {
        const head = word.slice(0, open);
        const tail = word.slice(i + 1);
        const parts: string[] = [];
        let start = open + 1;
        for (const comma of [...commas, i]) {
          parts.push(word.slice(start, comma));
          start = comma + 1;
        }
        const out: string[] = [];
        for (const part of parts) for (const rest of braceExpand(head + part + tail, limit)) if (out.length < limit) out.push(rest);
        return out;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  return [word];
}

function toArg(encoded: string): Arg {
  let template = '';
  let glob = false;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i]!;
    if (c === '\\' && i + 1 < encoded.length) template += encoded[++i];
    else {
      if (c === '*' || c === '?' || c === '[') glob = true;
      template += c;
    }
  }
  return { value: template.includes(DYNAMIC) ? null : template, template, glob };
}

function expandTilde(encoded: string, home: string | null): string {
  if (!encoded.startsWith('~')) return encoded;
  const end = encoded.indexOf('/');
  const user = end < 0 ? encoded.slice(1) : encoded.slice(1, end);
  if (user) return DYNAMIC + encoded.slice(end < 0 ? encoded.length : end);
  return (home === null ? DYNAMIC : escapeQuoted(home)) + encoded.slice(1);
}

/** Evaluates one word node into the arguments it becomes (brace expansion and splitting can make several). */
export function evaluateWord(node: SyntaxNode, scope: WordScope): Arg[] {
  const encoded = expandTilde(encode(node, scope, false), scope.home);
  const out: Arg[] = [];
  for (const alternative of braceExpand(encoded))
    for (const piece of alternative.split(SPLIT)) if (piece !== '' && out.length < MAX_WORDS) out.push(toArg(piece));
  // "" is still one (empty) argument.
  if (!out.length && !encoded.includes(SPLIT)) out.push({ value: '', template: '', glob: false });
  return out;
}

/** Evaluates a word that is not split or brace-expanded (assignment values, here-strings). */
export function evaluateScalar(node: SyntaxNode, scope: WordScope): Arg {
  // No word splitting or globbing happens here, but backslashes and tilde work as in any word.
  const encoded = expandTilde(encode(node, scope, false), scope.home);
  return { ...toArg(encoded.split(SPLIT).join(' ')), glob: false };
}

/** A literal argument (for arguments we synthesize). */
export function literal(value: string): Arg {
  return { value, template: value, glob: false };
}
