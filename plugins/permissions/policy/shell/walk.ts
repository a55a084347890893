import { downloadedCodeBlocks, downloads } from './downloads.js';
import { CommandJudge, type WalkOptions } from './judge.js';
import { containsCommandNamed, isPatternNode, parseScriptSync, type ParsedScript, type SyntaxNode } from './parser.js';
import { noEffects, readRedirect, REDIRECTS, type Effects } from './redirects.js';
import { cloneScope, mergeScopes, type Scope } from './scope.js';
import { DYNAMIC, type Arg, type ShellAnalysis, type ShellCommand } from './types.js';
import { evaluateScalar, evaluateWord, isPlainArithmetic, type WordScope } from './words.js';
import { isHarmlessShellVariable, isHarmlessVariable } from './wrappers.js';

export type { WalkOptions } from './judge.js';

/** A variable the walker never knows: stands for run-time parts when a payload is re-parsed. */
const DYNAMIC_VARIABLE = '__ASSISTANT_DYNAMIC__';
const MAX_PAYLOAD_DEPTH = 4;
/** A `for` loop over at most this many known words is judged once per word. */
const MAX_LOOP_VALUES = 16;
const STATEMENTS = new Set(['program', 'compound_statement', 'do_group', 'else_clause', 'elif_clause', 'list']);
const EXPRESSIONS = new Set([
  'binary_expression', 'unary_expression', 'postfix_expression', 'ternary_expression', 'parenthesized_expression', 'number',
  'variable_name', 'word', 'string', 'raw_string', 'simple_expansion', 'expansion', 'arithmetic_expansion', 'concatenation', 'subscript',
]);
/** Statements tree-sitter can hang under a command as if they were arguments. */
const STATEMENT_ARGUMENTS = new Set(['subshell', 'compound_statement', 'pipeline', 'list', 'command', 'redirected_statement', 'negated_command']);

/** Walks the syntax tree of one command string and judges every simple command in it. */
export class ScriptWalker extends CommandJudge {
  /** `parse` is the parser of every script, payloads included (tests force tree-sitter with it). */
  constructor(
    options: WalkOptions,
    private readonly parse: (source: string) => ParsedScript = parseScriptSync,
  ) {
    super(options);
  }

  /** Judges a whole command string. */
  run(source: string): ShellAnalysis {
    const scope: Scope = { vars: new Map(), cwd: this.options.cwd, functions: new Set() };
    this.parseAndWalk(source, scope);
    this.blocks.push(...downloadedCodeBlocks(this.commands, this.stdinReaders, this.fedLiterally));
    return { source, commands: this.commands, blocks: [...new Set(this.blocks)], concerns: [...new Set(this.concerns)] };
  }

  private parseAndWalk(source: string, scope: Scope): void {
    const parsed = this.parse(source.split(DYNAMIC).join('$' + DYNAMIC_VARIABLE));
    try {
      if (parsed.root.hasError) this.concerns.push('the command could not be fully parsed');
      this.walk(parsed.root, scope);
    } finally {
      parsed.dispose();
    }
  }

  /** Runs a script given as a string (`sh -c`, `eval`, a here-doc fed to a shell). */
  protected walkPayload(payload: Arg | string, scope: Scope): void {
    if (this.payloadDepth >= MAX_PAYLOAD_DEPTH) {
      this.concerns.push('scripts are nested too deeply to judge');
      return;
    }
    const text = typeof payload === 'string' ? payload : payload.template;
    this.payloadDepth++;
    this.level++;
    try {
      this.parseAndWalk(text, cloneScope(scope));
    } finally {
      this.level--;
      this.payloadDepth--;
    }
  }

  protected walk(node: SyntaxNode, scope: Scope): void {
    const type = node.type;
    if (STATEMENTS.has(type)) {
      // `(( x > 1 ))` evaluates x as arithmetic: a subscript in its value runs code.
      if (type === 'compound_statement' && node.text.startsWith('((') && !isPlainArithmetic(node, this.wordScope(scope)))
        this.concerns.push(`the arithmetic ${node.text} evaluates variables, whose array subscripts can run code`);
      for (const child of node.namedChildren) this.walk(child, scope);
      return;
    }
    switch (type) {
      case 'comment':
        return;
      case 'subshell': {
        const inner = cloneScope(scope);
        for (const child of node.namedChildren) this.walk(child, inner);
        return;
      }
      case 'pipeline':
        this.walkPipeline(node.namedChildren, scope, []);
        return;
      case 'redirected_statement':
        this.walkRedirected(node, scope);
        return;
      case 'command':
        this.walkCommand(node, scope, undefined);
        return;
      case 'variable_assignment':
        this.assign(node, scope, false);
        return;
      case 'variable_assignments':
        for (const child of node.namedChildren) this.assign(child, scope, false);
        return;
      case 'declaration_command':
        this.declare(node, scope);
        return;
      case 'unset_command':
        for (const child of node.namedChildren) {
          // `unset 'a[$(cmd)]'` evaluates the subscript.
          if (child.type !== 'variable_name' && child.type !== 'word') this.visitWords(child, scope);
          if (child.text.includes('[') || !/^[\w-]+$/.test(child.text)) this.concerns.push(`\`unset ${child.text}\` evaluates an array subscript or a run-time name`);
          scope.vars.set(child.text, null);
        }
        return;
      case 'negated_command':
        for (const child of node.namedChildren) this.walk(child, scope);
        return;
      case 'test_command':
        this.visitWords(node, scope);
        this.checkTest(node, scope);
        return;
      case 'if_statement':
      case 'while_statement':
      case 'until_statement':
      case 'c_style_for_statement':
      case 'case_statement':
      case 'for_statement':
        this.walkBranches(node, scope);
        return;
      case 'function_definition':
        this.defineFunction(node, scope);
        return;
      case 'ERROR':
        this.concerns.push('the command could not be fully parsed');
        for (const child of node.namedChildren) this.walk(child, scope);
        return;
      default:
        if (EXPRESSIONS.has(type)) this.visitWords(node, scope);
        else {
          this.concerns.push(`the shell construct "${type}" is not understood`);
          this.visitWords(node, scope);
        }
    }
  }

  /** Control flow: each part may or may not run, so each gets its own scope, merged after. */
  private walkBranches(node: SyntaxNode, scope: Scope): void {
    const branches: Scope[] = [];
    if (node.type === 'if_statement' || node.type === 'while_statement' || node.type === 'until_statement') {
      // The condition runs, then maybe the body: one branch for both; elif/else each their own.
      const main = cloneScope(scope);
      branches.push(main);
      for (const child of node.namedChildren) {
        if (child.type === 'elif_clause' || child.type === 'else_clause') {
          const branch = cloneScope(scope);
          this.walk(child, branch);
          branches.push(branch);
        } else this.walk(child, main);
      }
      mergeScopes(scope, branches);
      return;
    }
    if (node.type === 'c_style_for_statement') {
      const header = node.namedChildren.filter((c) => c.type !== 'do_group' && c.type !== 'compound_statement');
      if (header.some((c) => !isPlainArithmetic(c, this.wordScope(scope)) || !/^[\w\s=<>!+*\/%&|()-]*$/.test(c.text)))
        this.concerns.push('the arithmetic of a `for ((...))` loop evaluates variables, whose array subscripts can run code');
    }
    if (node.type === 'for_statement') {
      const variable = node.childForFieldName('variable');
      const values = node.childrenForFieldName('value').flatMap((value) => evaluateWord(value, this.wordScope(scope)));
      const bodyNode = node.childForFieldName('body');
      // `for d in / ~; do rm -rf $d; done`: with every value known (and few), the body is judged once
      // per value, so hard blocks see each target; otherwise once with the variable unknown.
      const known = values.length <= MAX_LOOP_VALUES && values.every((v) => v.value !== null && !v.glob) ? values.map((v) => v.value!) : [null];
      const bodies: Scope[] = [];
      for (const value of known.length ? known : [null]) {
        const body = cloneScope(scope);
        if (variable) body.vars.set(variable.text, value);
        if (bodyNode) this.walk(bodyNode, body);
        bodies.push(body);
      }
      mergeScopes(scope, bodies);
      if (variable) scope.vars.set(variable.text, null);
      return;
    }
    if (node.type === 'case_statement') {
      const value = node.childForFieldName('value');
      if (value) evaluateWord(value, this.wordScope(scope));
    }
    for (const child of node.namedChildren) {
      if (node.type === 'case_statement' && child.type !== 'case_item') continue;
      const branch = cloneScope(scope);
      if (child.type === 'case_item') {
        for (const statement of child.namedChildren) if (!isPatternNode(statement, child)) this.walk(statement, branch);
      } else this.walk(child, branch);
      branches.push(branch);
    }
    mergeScopes(scope, branches);
  }

  private defineFunction(node: SyntaxNode, scope: Scope): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    scope.functions.add(name);
    if (!body) return;
    const callsItself = containsCommandNamed(body, name);
    if (callsItself && (/[|&]/.test(body.text) || body.type === 'subshell'))
      this.blocks.push(`\`${name}\` is a fork bomb: a function that starts copies of itself`);
    else if (callsItself) this.concerns.push(`the function \`${name}\` calls itself`);
    this.walk(body, cloneScope(scope));
  }

  /**
   * A shell assignment. Exported (or in front of a command) only harmless names keep the script
   * provable; a plain one may set a variable the environment already exports, so the same holds
   * for names programs read. A subscript (`a[$(cmd)]=1`) is evaluated as arithmetic: code.
   */
  private assign(node: SyntaxNode, scope: Scope, exported: boolean): void {
    if (node.type !== 'variable_assignment') {
      if (node.type === 'variable_name' || node.type === 'word') this.exportName(node.text, exported);
      else {
        // `export $(...)` sets variables whose names are only known at run time (PATH among them).
        this.visitWords(node, scope);
        this.concerns.push(`\`${node.text}\` sets variables only known at run time`);
      }
      return;
    }
    const nameNode = node.childForFieldName('name') ?? node.namedChildren[0];
    const name = nameNode?.type === 'subscript' ? (nameNode.childForFieldName('name')?.text ?? '') : (nameNode?.text ?? '');
    if (nameNode?.type === 'subscript') {
      this.visitWords(nameNode, scope);
      const index = nameNode.childForFieldName('index');
      if (!index || !isPlainArithmetic(nameNode, this.wordScope(scope)) || !/^\d+$/.test(index.text)) this.concerns.push(`\`${nameNode.text}=\` evaluates an array subscript, which can run code`);
    }
    const valueNode = node.childForFieldName('value');
    const value = valueNode ? (valueNode.type === 'array' ? null : evaluateScalar(valueNode, this.wordScope(scope)).value) : '';
    if (valueNode?.type === 'array') this.visitWords(valueNode, scope);
    this.exportName(name, exported, value);
    scope.vars.set(name, node.text.includes('+=') ? null : value);
  }

  private exportName(name: string, exported: boolean, value?: string | null): void {
    if (exported ? !isHarmlessVariable(name, value) : !isHarmlessShellVariable(name, value)) this.concerns.push(`sets ${name}, which may change what later commands run or load`);
  }

  /** `export`, `declare`, `typeset`, `local`, `readonly`: `-x` exports, `-n` makes a reference to another name. */
  private declare(node: SyntaxNode, scope: Scope): void {
    const keyword = node.children[0]?.text ?? '';
    let exported = keyword === 'export';
    for (const child of node.namedChildren) {
      if (child.type === 'word' && child.text.startsWith('-')) {
        if (/^-\w*x/.test(child.text)) exported = true;
        if (/^[-+]\w*[nf]/.test(child.text) && keyword !== 'export') this.concerns.push(`\`${keyword} ${child.text}\` makes names refer to other variables or functions`);
        continue;
      }
      if (child.type === 'word' && child.text.startsWith('+')) continue;
      this.assign(child, scope, exported);
    }
  }

  /** `[[ -v 'a[$(cmd)]' ]]` and `[[ $x -eq 1 ]]` evaluate subscripts and arithmetic, which run code. */
  private checkTest(node: SyntaxNode, scope: Scope): void {
    const text = node.text;
    if (/(^|[\s(!])-v\s/.test(text)) this.concerns.push(`\`${text}\` evaluates an array subscript, which can run code`);
    if (/\s-(eq|ne|lt|le|gt|ge)\s/.test(text) && text.startsWith('[[') && !isPlainArithmetic(node, this.wordScope(scope)))
      this.concerns.push(`\`${text}\` compares as arithmetic, which evaluates variables whose subscripts can run code`);
  }

  /** Evaluates every word below a node for the substitutions it runs. */
  private visitWords(node: SyntaxNode, scope: Scope): void {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') this.substitute(node, scope);
    else for (const child of node.namedChildren) this.visitWords(child, scope);
  }

  private wordScope(scope: Scope): WordScope {
    return {
      variable: (name) => {
        if (name === DYNAMIC_VARIABLE) return null;
        if (scope.vars.has(name)) return scope.vars.get(name)!;
        if (name === 'HOME') return this.options.home;
        if (name === 'PWD') return scope.cwd;
        // Unset in the script, IFS splits on blanks: `rm${IFS}-rf${IFS}/` is three words.
        if (name === 'IFS') return ' \t\n';
        return null;
      },
      home: this.options.home,
      substitution: (node) => this.substitute(node, scope),
      unknown: (what) => this.concerns.push(`${what} is not understood`),
    };
  }

  /** A `$(...)` or `<(...)`: its commands run too. Returns the output when it is static (`$(echo rm)`). */
  private substitute(node: SyntaxNode, scope: Scope): string | null {
    this.concerns.push(node.type === 'process_substitution' ? 'uses process substitution <(...)' : 'uses command substitution $(...)');
    const start = this.commands.length;
    this.level++;
    try {
      const inner = cloneScope(scope);
      for (const child of node.namedChildren) this.walk(child, inner);
    } finally {
      this.level--;
    }
    const produced = this.commands.slice(start);
    if (produced.some(downloads)) this.downloadedSubstitution = true;
    // `$(cd ..; pwd)`: the output of the commands run directly inside, when each is known (cd prints nothing).
    const direct = produced.filter((c) => this.levels.get(c) === this.level + 1 && !this.piped.has(c));
    if (node.type !== 'command_substitution' || !direct.length) return null;
    const outputs = direct.map((c) => this.outputs.get(c) ?? (c.name === 'cd' || c.name === 'pushd' || c.name === ':' || c.name === 'true' ? '' : undefined));
    return outputs.every((o) => o !== undefined) ? outputs.join('').replace(/\n+$/, '') : null;
    return null;
  }

  private walkRedirected(node: SyntaxNode, scope: Scope): void {
    const body = node.childForFieldName('body');
    const effects: Effects = noEffects();
    const continuations: SyntaxNode[] = [];
    for (const redirect of node.childrenForFieldName('redirect')) this.redirect(redirect, scope, effects, continuations);
    let head: ShellCommand | undefined;
    if (body) head = this.walkWithEffects(body, scope, effects);
    else this.attach(this.commands.length, effects, scope);
    for (const next of continuations) {
      if (next.type === 'pipeline') this.walkPipeline(next.namedChildren, scope, head ? [head] : []);
      else this.walk(next, scope);
    }
  }

  /**
   * Walks a statement that has redirections and returns the command they feed. tree-sitter hangs
   * a here-doc after `a && b` on the whole list, but it belongs to the last command (`b`).
   */
  private walkWithEffects(node: SyntaxNode, scope: Scope, effects: Effects): ShellCommand | undefined {
    const start = this.commands.length;
    if (node.type === 'list' && node.namedChildren.length) {
      const children = node.namedChildren;
      for (const child of children.slice(0, -1)) this.walk(child, scope);
      return this.walkWithEffects(children[children.length - 1]!, scope, effects);
    }
    if (node.type === 'command') this.walkCommand(node, scope, effects);
    else {
      this.walk(node, scope);
      this.attach(start, effects, scope);
    }
    const produced = this.commands.slice(start).filter((c) => this.levels.get(c) === this.level);
    return node.type === 'command' ? produced[0] : produced[produced.length - 1];
  }

  /** Redirections of a compound statement apply to every command it ran. */
  private attach(start: number, effects: Effects, scope: Scope): void {
    const produced = this.commands.slice(start).filter((c) => this.levels.get(c) === this.level);
    if (!produced.length && (effects.reads.length || effects.writes.length)) {
      this.push({ argv: [], effective: [], name: null, risk: 'read', reason: 'a redirection', reads: [], writes: [], concerns: [], cwd: scope.cwd, nested: this.level > 0 }, scope, effects);
      return;
    }
    for (const command of produced) this.addEffects(command, effects, scope.cwd);
    if (effects.extraArgs.length) this.concerns.push('a redirection is followed by more words');
  }

  private redirect(node: SyntaxNode, scope: Scope, effects: Effects, continuations: SyntaxNode[]): void {
    readRedirect(node, this.wordScope(scope), (n) => this.visitWords(n, scope), effects, continuations);
  }

  private walkCommand(node: SyntaxNode, scope: Scope, outer: Effects | undefined): void {
    const effects: Effects = outer ?? noEffects();
    const words = this.wordScope(scope);
    const concerns: string[] = [];
    const argNodes: SyntaxNode[] = [];
    let nameNode: SyntaxNode | undefined;
    const continuations: SyntaxNode[] = [];
    // Substitutions inside this command's words run their own commands: keep the outer flag apart.
    const outerDownloaded = this.downloadedSubstitution;
    this.downloadedSubstitution = false;
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') {
        const nameNode = child.childForFieldName('name');
        const name = nameNode?.text ?? '';
        if (nameNode) this.visitWords(nameNode, scope);
        const value = child.childForFieldName('value');
        const assigned = value ? evaluateScalar(value, words).value : '';
        if (!isHarmlessVariable(name, assigned)) concerns.push(`sets ${name}, which may change what the program runs or loads`);
      } else if (child.type === 'command_name') nameNode = child;
      else if (REDIRECTS.has(child.type)) this.redirect(child, scope, effects, continuations);
      else if (STATEMENT_ARGUMENTS.has(child.type)) this.walk(child, scope); // `time (rm x)`: the group runs
      else if (child.type !== 'comment') argNodes.push(child);
    }
    const argv = [nameNode, ...argNodes, ...effects.extraArgs].filter((n): n is SyntaxNode => !!n).flatMap((n) => evaluateWord(nameNode === n ? n.namedChildren[0] ?? n : n, words));
    const downloaded = this.downloadedSubstitution;
    this.downloadedSubstitution = outerDownloaded;
    if (!argv.length) {
      if (effects.reads.length || effects.writes.length) this.attach(this.commands.length, effects, scope);
      return;
    }
    const name = argv[0]!.value;
    if (name !== null && scope.functions.has(name)) {
      this.push({ argv, effective: argv, name, risk: 'read', reason: `calls the function \`${name}\` defined in the command`, reads: [], writes: [], concerns, cwd: scope.cwd, nested: this.level > 0 }, scope, effects);
      return;
    }
    this.judge(argv, scope, effects, concerns, downloaded);
    for (const next of continuations) this.walk(next, scope);
  }
}
