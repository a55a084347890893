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
/** Private-use characters stand for run-time parts with a known worst case (index into the word's list). */
const WORST_BASE = 0xe000;
const WORST_LIMIT = 0xf8ff;

/** The worst cases met while one word is encoded. */
type Worsts = string[];

function worstMarker(worst: string, worsts: Worsts): string {
  if (WORST_BASE + worsts.length > WORST_LIMIT) return DYNAMIC;
  worsts.push(worst);
  return String.fromCharCode(WORST_BASE + worsts.length - 1);
}

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

/** A glob pattern (`${X%/*}`) as a regular expression over a whole string. */
function patternRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '\\' && i + 1 < pattern.length) out += pattern[++i]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** `${V%p}`, `${V%%p}`, `${V#p}`, `${V##p}` on a known value and a literal pattern. */
function trimmed(value: string, operator: string, pattern: string): string | null {
  if (/[[]/.test(pattern)) return null;
  const regex = patternRegex(pattern);
  const n = value.length;
  if (operator === '%') { for (let i = n; i >= 0; i--) if (regex.test(value.slice(i))) return value.slice(0, i); }
  else if (operator === '%%') { for (let i = 0; i <= n; i++) if (regex.test(value.slice(i))) return value.slice(0, i); }
  else if (operator === '#') { for (let i = 0; i <= n; i++) if (regex.test(value.slice(0, i))) return value.slice(i); }
  else if (operator === '##') { for (let i = n; i >= 0; i--) if (regex.test(value.slice(0, i))) return value.slice(i); }
  return value;
}

/** What an expansion evaluates to, and what it may be at worst when that is only known at run time. */
interface Expanded {
  value: string | null;
  worst?: string;
}

const PLAIN_NAME = /^\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/;

function expansionValue(node: SyntaxNode, scope: WordScope, worsts: Worsts): Expanded {
  const text = node.text;
  const named = node.namedChildren;
  visitSubstitutions(node, scope);
  // `${#x}` is a length; `${!x}` (indirection) and anything else not listed below is not understood.
  if (/^\$\{#[A-Za-z_][A-Za-z0-9_]*\}$/.test(text)) return { value: null };
  const head = PLAIN_NAME.exec(text);
  if (!head) {
    scope.unknown(`the expansion ${text}`);
    return { value: null };
  }
  const name = head[1]!;
  const rest = text.slice(head[0].length, -1);
  const known = /^[A-Za-z_]/.test(name) ? scope.variable(name) : null;
  if (rest === '') return { value: known };
  // Transformations (`@P` expands prompts, running `$(...)`), subscripts and offsets (arithmetic) can run code.
  if (rest.startsWith('@') || rest.startsWith('[')) {
    if (/^\[([0-9]+|[@*])\]$/.test(rest)) return { value: null };
    scope.unknown(`the expansion ${text}`);
    return { value: null };
  }
  const operator = /^(:?[-=?+]|%%?|##?|\/\/?|\/[#%]|\^\^?|,,?|:)/.exec(rest)?.[1];
  if (!operator) {
    scope.unknown(`the expansion ${text}`);
    return { value: null };
  }
  const others = named.filter((n) => n.type !== 'variable_name' && n.type !== 'special_variable_name');
  const word = others.length === 1 ? evaluateScalar(others[0]!, { ...scope, substitution: () => null }).value : others.length ? null : rest.slice(operator.length);
  if (operator === ':') {
    if (/^:\s*-?[0-9]+(:\s*-?[0-9]+)?$/.test(rest)) return { value: null };
    scope.unknown(`the expansion ${text} (offsets are arithmetic)`);
    return { value: null };
  }
  if (operator === '?' || operator === ':?') return { value: known };
  if (operator === '-' || operator === ':-' || operator === '=' || operator === ':=') {
    if (known !== null && known !== '') return { value: known };
    if (known === '' && !operator.startsWith(':')) return { value: '' };
    if (known === '' || word === null) return { value: word };
    return { value: null, worst: word };
  }
  if (operator === '+' || operator === ':+') {
    if (known !== null) return { value: known === '' && operator === ':+' ? '' : word };
    return word === null ? { value: null } : { value: null, worst: word };
  }
  if (/^(%%?|##?)$/.test(operator) && known !== null && word !== null) return { value: trimmed(known, operator, word) };
  void worsts;
  return { value: null };
}

/** Runs the substitutions inside a node we otherwise treat as a run-time value. */
function visitSubstitutions(node: SyntaxNode, scope: WordScope): void {
  for (const child of node.namedChildren) {
    if (child.type === 'command_substitution' || child.type === 'process_substitution') scope.substitution(child);
    else visitSubstitutions(child, scope);
  }
}

function encode(node: SyntaxNode, scope: WordScope, quoted: boolean, worsts: Worsts): string {
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
      for (const child of node.namedChildren) out += child.type === 'string_content' ? doubleQuoted(child.text) : encode(child, scope, true, worsts);
      return out;
    }
    case 'concatenation': {
      let out = '';
      for (const child of node.namedChildren) out += encode(child, scope, quoted, worsts);
      // A concatenation can hide plain text between named children (e.g. `a"b"c` keeps `a`/`c` as words).
      return out;
    }
    case 'simple_expansion': {
      const name = node.namedChildren[0];
      return expanded(name && name.type === 'variable_name' ? scope.variable(name.text) : null, quoted);
    }
    case 'expansion': {
      const result = expansionValue(node, scope, worsts);
      if (result.value === null && result.worst !== undefined) return worstMarker(result.worst, worsts);
      return expanded(result.value, quoted);
    }
    case 'command_substitution':
      return expanded(scope.substitution(node), quoted);
    case 'process_substitution':
      scope.substitution(node);
      return DYNAMIC;
    case 'arithmetic_expansion':
      visitSubstitutions(node, scope);
      if (!plainArithmetic(node, scope)) scope.unknown(`the arithmetic ${node.text} (it evaluates variables, whose array subscripts can run code)`);
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

function toArg(encoded: string, worsts: Worsts): Arg {
  let template = '';
  let worst = '';
  let glob = false;
  let marked = false;
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded[i]!;
    const code = c.charCodeAt(0);
    if (c === '\\' && i + 1 < encoded.length) {
      template += encoded[++i];
      worst += encoded[i];
    } else if (code >= WORST_BASE && code - WORST_BASE < worsts.length) {
      template += DYNAMIC;
      worst += worsts[code - WORST_BASE];
      marked = true;
    } else {
      if (c === '*' || c === '?' || c === '[') glob = true;
      template += c;
      worst += c;
    }
  }
  const value = template.includes(DYNAMIC) ? null : template;
  return { value, template, glob, ...(value === null && marked && !worst.includes(DYNAMIC) ? { worst } : {}) };
}

function expandTilde(encoded: string, scope: WordScope, worsts: Worsts): string {
  const home = scope.home;
  if (!encoded.startsWith('~')) return encoded;
  const end = encoded.indexOf('/');
  const user = end < 0 ? encoded.slice(1) : encoded.slice(1, end);
  const rest = encoded.slice(end < 0 ? encoded.length : end);
  // `~+` is the working directory.
  if (user === '+') {
    const pwd = scope.variable('PWD');
    return (pwd === null ? DYNAMIC : escapeQuoted(pwd)) + rest;
  }
  // `~other` is another user's home directory: as bad to delete as your own.
  if (user) return (home === null || /[^\w.-]/.test(user) ? DYNAMIC : worstMarker(home, worsts)) + rest;
  return (home === null ? DYNAMIC : escapeQuoted(home)) + rest;
}

/** True when arithmetic only uses numbers and variables known to hold plain integers. */
function plainArithmetic(node: SyntaxNode, scope: WordScope): boolean {
  for (const child of node.namedChildren) {
    if (child.type === 'number') continue;
    if (child.type === 'variable_name' || child.type === 'word') {
      if (/^-?[0-9]+$/.test(child.text)) continue;
      const value = scope.variable(child.text);
      if (value === null || !/^\s*-?[0-9]+\s*$/.test(value)) return false;
      continue;
    }
    if (child.type === 'simple_expansion') {
      const value = scope.variable(child.namedChildren[0]?.text ?? '');
      if (value === null || !/^\s*-?[0-9]+\s*$/.test(value)) return false;
      continue;
    }
    if (child.type === 'command_substitution' || child.type === 'subscript' || child.type === 'expansion') return false;
    if (!plainArithmetic(child, scope)) return false;
  }
  return true;
}

/** True when an arithmetic context (`(( ))`, `for ((;;))`, `[[ a -eq b ]]`) only uses plain integers. */
export function isPlainArithmetic(node: SyntaxNode, scope: WordScope): boolean {
  return plainArithmetic(node, scope);
}

/** Evaluates one word node into the arguments it becomes (brace expansion and splitting can make several). */
export function evaluateWord(node: SyntaxNode, scope: WordScope): Arg[] {
  const worsts: Worsts = [];
  const encoded = expandTilde(encode(node, scope, false, worsts), scope, worsts);
  const out: Arg[] = [];
  for (const alternative of braceExpand(encoded))
    for (const piece of alternative.split(SPLIT)) if (piece !== '' && out.length < MAX_WORDS) out.push(toArg(piece, worsts));
  // "" is still one (empty) argument.
  if (!out.length && !encoded.includes(SPLIT)) out.push({ value: '', template: '', glob: false });
  return out;
}

/** Evaluates a word that is not split or brace-expanded (assignment values, here-strings). */
export function evaluateScalar(node: SyntaxNode, scope: WordScope): Arg {
  // No word splitting or globbing happens here, but backslashes and tilde work as in any word.
  const worsts: Worsts = [];
  const encoded = expandTilde(encode(node, scope, false, worsts), scope, worsts);
  return { ...toArg(encoded.split(SPLIT).join(' '), worsts), glob: false };
}

/** A literal argument (for arguments we synthesize). */
export function literal(value: string): Arg {
  return { value, template: value, glob: false };
}
