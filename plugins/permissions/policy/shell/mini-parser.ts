/**
 * A hand-written parser for a strict subset of bash, so the commonest commands (`git status
 * --short`, `ls -la src | head -5`, `cd pkg && npm test`) are judged without loading tree-sitter
 * (its wasm grammar costs a fresh process tens of MiB and much CPU). It builds nodes shaped
 * exactly like tree-sitter-bash's (test/permissions/mini-parser.test.ts proves it on a corpus and
 * a fuzz), so the walker is unchanged. Anything else returns undefined, and tree-sitter parses it.
 *
 * The subset: words of [A-Za-z0-9_./,:@%+=-] only, separated by spaces or tabs, commands joined by
 * `|`, `&&`, `||` and `;` (a `;` may end the script). `=` only inside arguments: in a command
 * word it makes an assignment (`a=b cmd`), at the start of a word tree-sitter may read a test
 * operator (`ls ==`); declaration commands, which read their arguments as assignments, are
 * refused below. Each excluded character has a meaning in
 * some word: `~` (tilde expansion), `#` (comments, `$#`),
 * `* ? [ ]` (globs, tests), `{ }` (brace expansion, groups), `!` (history, negation), `$` and
 * backquote (expansions), quotes and `\` (quoting), `< >` (redirections), `( )` (subshells,
 * extglobs), `&` alone (background), `^` (history substitution, old pipe), newlines (here-docs,
 * line continuations), other whitespace and non-ASCII (bash and tree-sitter split words on
 * different blanks). A command may not start with a reserved word or a declaration (tree-sitter
 * builds other nodes for `export a`, `unset a`; bash treats `time`, `coproc` specially).
 */
import type { ParsedScript, SyntaxNode } from './parser.js';

const WORD = /^[A-Za-z0-9_.\/,:@%+=-]+$/;
/**
 * A command name, narrower still: where a statement starts, tree-sitter's scanner reads a name
 * followed by `%`, `@`, `:` or `+` as the start of an assignment or expansion (`x@y` parses as an
 * error), and a name starting with `-`, `0` or `_` makes it misread the next word (`- x%y`).
 */
const NAME = /^[A-Za-z1-9.\/][A-Za-z0-9_.\/,-]*$/;
/** Longer scripts are rare and go to tree-sitter: bounds the work and how deep `a && b && …` nests. */
const MAX_LENGTH = 4096;
/** tree-sitter-bash gives a word that is all digits (or -digits, 0x-digits) the type `number`. */
const NUMBER = /^-?(0x)?[0-9]+$/;
const RESERVED = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', 'coproc',
  'export', 'declare', 'typeset', 'local', 'readonly', 'unset', 'unsetenv',
]);

let nextId = 1;

/** A syntax node with the same shape as tree-sitter's (only what the walker uses). */
class MiniNode implements SyntaxNode {
  readonly id = nextId++;
  readonly hasError = false;
  readonly text: string;
  readonly children: MiniNode[];
  readonly namedChildren: MiniNode[];
  /** The field name of each child that has one (`name`, `argument`). */
  private readonly fields = new Map<MiniNode, string>();

  constructor(
    source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly start: number,
    readonly end: number,
    parts: { node: MiniNode; field?: string }[] = [],
  ) {
    this.text = source.slice(start, end);
    this.children = parts.map((p) => p.node);
    this.namedChildren = this.children.filter((c) => c.isNamed);
    for (const { node, field } of parts) if (field) this.fields.set(node, field);
  }

  childForFieldName(name: string): MiniNode | null {
    return this.childrenForFieldName(name)[0] ?? null;
  }

  childrenForFieldName(name: string): MiniNode[] {
    return this.children.filter((c) => this.fields.get(c) === name);
  }
}

interface Token {
  text: string;
  start: number;
  end: number;
  word: boolean;
}

/** Splits the script into words and operators; undefined on any character outside the subset. */
function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  const pattern = /[ \t]+|(&&|\|\||[|;])|([^ \t|;&]+)|(.)/gs;
  for (const match of source.matchAll(pattern)) {
    if (match[3] !== undefined) return undefined;
    const text = match[1] ?? match[2];
    if (text === undefined) continue;
    const word = match[2] !== undefined;
    // A word opening with `=` can be read as a test operator (`ls ==` is an error to tree-sitter).
    if (word && (!WORD.test(text) || text.startsWith('='))) return undefined;
    tokens.push({ text, start: match.index, end: match.index + text.length, word });
  }
  return tokens;
}

/** A recursive-descent parser over the tokens, building tree-sitter-bash's nodes. */
class Builder {
  private at = 0;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  private node(type: string, parts: { node: MiniNode; field?: string }[]): MiniNode {
    return new MiniNode(this.source, type, true, parts[0]!.node.start, parts[parts.length - 1]!.node.end, parts);
  }

  private operator(): MiniNode {
    const token = this.tokens[this.at++]!;
    return new MiniNode(this.source, token.text, false, token.start, token.end);
  }

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  /** program: statement (';' statement)* ';'? — undefined when the tokens are not exactly that. */
  program(): MiniNode | undefined {
    const parts: { node: MiniNode }[] = [];
    while (this.at < this.tokens.length) {
      const statement = this.list();
      if (!statement) return undefined;
      parts.push({ node: statement });
      if (this.at === this.tokens.length) break;
      if (this.peek()!.text !== ';') return undefined;
      parts.push({ node: this.operator() });
    }
    if (!parts.length) return undefined;
    // tree-sitter's program starts at the first token and runs to the end of the source.
    const first = parts[0]!.node.start;
    return new MiniNode(this.source, 'program', true, first, this.source.length, parts);
  }

  /**
   * `a && b || c` nests to the left: list(list(a, b), c). tree-sitter splits a pipeline of three
   * or more before `&&`/`||` oddly (`a | b | c && d` is pipeline(a, list(pipeline(b, c), d))): left to it.
   */
  private list(): MiniNode | undefined {
    let left = this.pipeline();
    while (left && (this.peek()?.text === '&&' || this.peek()?.text === '||')) {
      if (left.type === 'pipeline' && left.namedChildren.length > 2) return undefined;
      const operator = this.operator();
      const right = this.pipeline();
      if (!right) return undefined;
      left = this.node('list', [{ node: left }, { node: operator }, { node: right }]);
    }
    return left;
  }

  /** `a | b | c` is one flat pipeline. */
  private pipeline(): MiniNode | undefined {
    const first = this.command();
    if (!first) return undefined;
    const parts: { node: MiniNode }[] = [{ node: first }];
    while (this.peek()?.text === '|') {
      parts.push({ node: this.operator() });
      const next = this.command();
      if (!next) return undefined;
      parts.push({ node: next });
    }
    return parts.length === 1 ? first : this.node('pipeline', parts);
  }

  private command(): MiniNode | undefined {
    const words: MiniNode[] = [];
    for (let token = this.peek(); token?.word; token = this.peek()) {
      this.at++;
      words.push(new MiniNode(this.source, NUMBER.test(token.text) ? 'number' : 'word', true, token.start, token.end));
    }
    const [name, ...args] = words;
    if (!name || !NAME.test(name.text) || RESERVED.has(name.text)) return undefined;
    const commandName = this.node('command_name', [{ node: name }]);
    return this.node('command', [{ node: commandName, field: 'name' }, ...args.map((node) => ({ node, field: 'argument' }))]);
  }
}

/** Parses a script of the subset; undefined when it is outside it (tree-sitter must parse it). */
export function parseSimpleScript(source: string): ParsedScript | undefined {
  if (source.length > MAX_LENGTH) return undefined;
  const tokens = tokenize(source);
  if (!tokens) return undefined;
  const root = new Builder(source, tokens).program();
  return root && { root, dispose: () => {} };
}
