import { readdirSync } from 'node:fs';
import { downloadedCodeBlocks, downloads, runsCode } from './downloads.js';
import { parseScriptSync, type SyntaxNode } from './parser.js';
import { noEffects, readRedirect, REDIRECTS, type Effects } from './redirects.js';
import { cloneScope, codeLiterals, describeDynamic, mergeScopes, possiblePaths, subdirectory, type Scope } from './scope.js';
import type { Judge, Verdict } from './spec.js';
import { SHELLS } from './specs/exec.js';
import { judgeFor } from './specs/index.js';
import { DYNAMIC, type Arg, type ShellAnalysis, type ShellCommand, type ShellPath } from './types.js';
import { evaluateScalar, evaluateWord, isPlainArithmetic, type WordScope } from './words.js';
import { commandName, isHarmlessShellVariable, isHarmlessVariable, unwrap } from './wrappers.js';

/** Where and how a script is judged. */
export interface WalkOptions {
  cwd: string;
  home: string | null;
  /** Unwrap sudo/doas and judge the command they run (still never auto-allowed). */
  allowSudo: boolean;
  /** Test and lint runs count as safe. */
  trustTests: boolean;
}

/** A variable the walker never knows: stands for run-time parts when a payload is re-parsed. */
const DYNAMIC_VARIABLE = '__ASSISTANT_DYNAMIC__';
const MAX_PAYLOAD_DEPTH = 4;
/** A `for` loop over at most this many known words is judged once per word. */
const MAX_LOOP_VALUES = 16;
/** Calls that delete files in the languages inline code is written in: their path literals are judged as `rm -rf` targets. */
const DELETION_API = /\b(rmtree|rmSync|rmdirSync|unlinkSync|rm_rf|rm_r|remove_dir_all|remove_file|removedirs|unlink|rmdir|rimraf|deleteRecursively|delete_tree|Remove-Item|os\.remove|fs\.rm|fs\.promises\.rm|FileUtils\.rm)\b/;
const STATEMENTS = new Set(['program', 'compound_statement', 'do_group', 'else_clause', 'elif_clause', 'list']);
const EXPRESSIONS = new Set([
  'binary_expression', 'unary_expression', 'postfix_expression', 'ternary_expression', 'parenthesized_expression', 'number',
  'variable_name', 'word', 'string', 'raw_string', 'simple_expansion', 'expansion', 'arithmetic_expansion', 'concatenation', 'subscript',
]);
/** Statements tree-sitter can hang under a command as if they were arguments. */
const STATEMENT_ARGUMENTS = new Set(['subshell', 'compound_statement', 'pipeline', 'list', 'command', 'redirected_statement', 'negated_command']);

/** Walks the syntax tree of one command string and judges every simple command in it. */
export class ScriptWalker {
  readonly commands: ShellCommand[] = [];
  readonly blocks: string[] = [];
  readonly concerns: string[] = [];
  private level = 0;
  private payloadDepth = 0;
  private readonly levels = new Map<ShellCommand, number>();
  /** Static text a command prints (echo 'ls'), for `echo 'ls' | sh`. */
  private readonly outputs = new Map<ShellCommand, string>();
  /** Commands that run code read from standard input. */
  private readonly stdinReaders = new Set<ShellCommand>();
  /** Stdin readers whose input was literal text, judged as a script. */
  private readonly fedLiterally = new Set<ShellCommand>();
  /** Commands whose output goes into a pipe rather than to the substitution or terminal. */
  private readonly piped = new Set<ShellCommand>();
  /** The commands `xargs` runs, with their input still a run-time value: judged again once the input is known. */
  private readonly xargsRuns = new Map<ShellCommand, Arg[][]>();
  /** Set while a command's words are evaluated: a substitution in them downloads something. */
  private downloadedSubstitution = false;

  constructor(private readonly options: WalkOptions) {}

  /** Judges a whole command string. */
  run(source: string): ShellAnalysis {
    const scope: Scope = { vars: new Map(), cwd: this.options.cwd, functions: new Set() };
    this.parseAndWalk(source, scope);
    this.blocks.push(...downloadedCodeBlocks(this.commands, this.stdinReaders, this.fedLiterally));
    return { source, commands: this.commands, blocks: [...new Set(this.blocks)], concerns: [...new Set(this.concerns)] };
  }

  private parseAndWalk(source: string, scope: Scope): void {
    const parsed = parseScriptSync(source.split(DYNAMIC).join('$' + DYNAMIC_VARIABLE));
    if (!parsed) throw new Error('the shell parser is not loaded');
    try {
      if (parsed.root.hasError) this.concerns.push('the command could not be fully parsed');
      this.walk(parsed.root, scope);
    } finally {
      parsed.dispose();
    }
  }

  /** Runs a script given as a string (`sh -c`, `eval`, a here-doc fed to a shell). */
  private walkPayload(payload: Arg | string, scope: Scope): void {
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

  private walk(node: SyntaxNode, scope: Scope): void {
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

  /** Judges one simple command (after expansion) and everything it runs. */
  private judge(argv: Arg[], scope: Scope, effects: Effects | undefined, prefixConcerns: string[], downloaded: boolean): ShellCommand {
    const unwrapped = unwrap(argv, this.options.allowSudo);
    const effective = unwrapped.argv;
    const cwd = unwrapped.cwd ? subdirectory(scope.cwd, unwrapped.cwd) : scope.cwd;
    const { name, localProgram } = commandName(effective[0]);
    let verdict: Verdict;
    // Commands we do not know may read any of their arguments: those are checked for secrets.
    const unknownArgs = possiblePaths(effective.slice(1));
    if (!effective.length) verdict = { risk: 'exec', reason: `\`${argv[0]?.value}\` runs a script` };
    else if (name === null) verdict = { risk: 'unknown', reason: 'the command name is only known at run time', reads: unknownArgs };
    else if (localProgram) verdict = { risk: 'exec', reason: `runs the program ${effective[0]!.value}`, reads: [effective[0]!, ...unknownArgs] };
    else {
      const judge: Judge | undefined = judgeFor(name);
      verdict = judge
        ? judge(effective.slice(1), { trustTests: this.options.trustTests }, name)
        : { risk: 'unknown', reason: `\`${name}\` is not a command assistant knows to be safe`, reads: unknownArgs };
    }
    const here = verdict.cwd ? subdirectory(cwd, verdict.cwd) : cwd;
    const paths = (args: Arg[] | undefined, recursive = false): ShellPath[] =>
      (args ?? []).map((arg) => ({ arg, cwd: here, ...(recursive ? { recursive, excludes: verdict.excludes, ...(verdict.skipHidden ? { skipHidden: true } : {}) } : {}), ...(verdict.metadataOnly ? { metadata: true } : {}) }));
    const concerns = [...prefixConcerns, ...unwrapped.concerns, ...(verdict.concerns ?? [])];
    const dynamic = effective.slice(1).filter((a) => a.value === null);
    // `sort *` with a file named `-o.bashrc` here is `sort -o.bashrc`: a leading glob may expand to options.
    if (!verdict.inert && effective.slice(1).some((a) => a.glob && /^[*?[]/.test(a.template)) && mayListOptions(cwd))
      concerns.push('a glob at the start of an argument matches a file whose name starts with `-`, which the command would read as an option');
    if (dynamic.length && !verdict.inert) concerns.push(`an argument (${dynamic.map(describeDynamic).join(', ')}) is only known at run time`);
    const command: ShellCommand = {
      argv,
      effective,
      name,
      risk: verdict.risk,
      reason: verdict.reason,
      // A directory a command is moved into (`git -C dir`, `env -C dir`) is somewhere it reads.
      reads: [
        ...(unwrapped.cwd ? [{ arg: unwrapped.cwd, cwd: scope.cwd }] : []),
        ...(verdict.cwd ? [{ arg: verdict.cwd, cwd }] : []),
        ...paths(verdict.reads),
        ...paths(verdict.recursiveReads, true),
      ],
      writes: paths(verdict.writes),
      ...(verdict.writesUnknown ? { writesUnknown: true } : {}),
      ...(verdict.readsTracked ? { readsTracked: true } : {}),
      concerns,
      cwd: here,
      nested: this.level > 0,
      ...(localProgram ? { localProgram } : {}),
    };
    this.push(command, scope, effects);
    this.follow(command, verdict, unwrapped.scripts, scope, effects, downloaded);
    return command;
  }

  /** What a command runs in turn: `cd` moves, payloads, `xargs`/`find -exec` commands, inline code. */
  private follow(command: ShellCommand, verdict: Verdict, wrapperScripts: Arg[], scope: Scope, effects: Effects | undefined, downloaded: boolean): void {
    const name = command.name ?? '';
    if (verdict.cd === 'home') scope.cwd = this.options.home;
    else if (verdict.cd === 'unknown') scope.cwd = null;
    else if (verdict.cd) scope.cwd = subdirectory(scope.cwd, verdict.cd);
    if (verdict.output !== undefined) this.outputs.set(command, verdict.output);
    else if (name === 'pwd' && command.cwd !== null && command.effective.length === 1) this.outputs.set(command, command.cwd);
    else if (name === 'echo' || name === 'printf') {
      const words = command.effective.slice(1).filter((a, i) => !(name === 'echo' && i === 0 && /^-[neE]+$/.test(a.value ?? '')));
      if (words.every((a) => a.value !== null)) this.outputs.set(command, words.map((a) => a.value).join(' '));
    } else if (name === 'cat' && !command.reads.length && typeof effects?.stdin === 'string') this.outputs.set(command, effects.stdin);
    const runsScripts = [...wrapperScripts, ...(verdict.scripts ?? [])];
    if (downloaded && (runsCode(command) || name === 'eval')) this.blocks.push(`\`${name}\` runs a script downloaded from the network`);
    for (const script of runsScripts) this.walkPayload(script, scope);
    for (const argv of verdict.runs ?? []) {
      this.level++;
      try {
        if (argv.length) this.judge(argv, cloneScope(scope), undefined, [], false);
      } finally {
        this.level--;
      }
    }
    if (name === 'xargs' && verdict.runs) {
      this.xargsRuns.set(command, verdict.runs);
      if (typeof effects?.stdin === 'string') this.feedXargs(command, effects.stdin, scope);
    }
    for (const code of verdict.code ?? []) this.scanCode(code.template, command, scope);
    if (verdict.readsStdin) {
      this.stdinReaders.add(command);
      if (typeof effects?.stdin === 'string') this.feedStdin(command, effects.stdin, scope);
    }
  }

  /** `echo / | xargs rm -rf`: with its input known, what xargs runs is judged with it (hard blocks see `rm -rf /`). */
  private feedXargs(command: ShellCommand, text: string, scope: Scope): void {
    const words = text.split(/\s+/).filter(Boolean).map((w) => ({ value: w, template: w, glob: false }));
    if (!words.length) return;
    for (const argv of this.xargsRuns.get(command) ?? []) {
      const fed = argv.flatMap((a) => (a.value === null && a.template === DYNAMIC ? words : [a]));
      this.level++;
      try {
        this.judge(fed, cloneScope(scope), undefined, [], false);
      } finally {
        this.level--;
      }
    }
  }

  /** Literal input given to a shell or interpreter is judged as the script it is. */
  private feedStdin(command: ShellCommand, text: string, scope: Scope): void {
    this.fedLiterally.add(command);
    if (SHELLS.has(command.name ?? '')) this.walkPayload(text, scope);
    else this.scanCode(text, command, scope);
  }

  /**
   * Code in another language (python -c, node -e) cannot be parsed here, but its string literals
   * can: shell commands in them are judged (os.system('rm -rf /')) and paths are checked for secrets.
   */
  private scanCode(code: string, command: ShellCommand, scope: Scope): void {
    const deletes = DELETION_API.test(code);
    for (const text of codeLiterals(code)) {
      if (/\s/.test(text)) this.walkPayload(text, scope);
      else if (/[./~]/.test(text)) {
        command.reads.push({ arg: { value: text, template: text, glob: false }, cwd: scope.cwd });
        // shutil.rmtree('/'), fs.rmSync(os.homedir() + '/..'): a path the code may delete is judged as `rm -rf` of it.
        if (deletes) this.judgeAsDeletion(text, scope);
      }
    }
  }

  private judgeAsDeletion(path: string, scope: Scope): void {
    const word = (value: string) => ({ value, template: value, glob: false });
    this.level++;
    try {
      this.judge([word('rm'), word('-rf'), word(path)], cloneScope(scope), undefined, [], false);
    } finally {
      this.level--;
    }
  }

  private walkPipeline(elements: SyntaxNode[], scope: Scope, upstream: ShellCommand[]): void {
    const heads = [...upstream];
    for (const element of elements) {
      if (element.type === 'comment') continue;
      const start = this.commands.length;
      this.walk(element, cloneScope(scope));
      const head = this.commands.slice(start).find((c) => this.levels.get(c) === this.level);
      if (head && this.stdinReaders.has(head)) this.pipedInto(head, heads, scope);
      const previous = heads[heads.length - 1];
      const previousOutput = previous ? this.outputs.get(previous) : undefined;
      if (previous) this.piped.add(previous);
      // `echo cm0gLXJmIH4= | base64 -d | sh`: filters with known input have known output.
      const filtered = head && previousOutput !== undefined && !this.outputs.has(head) ? filterOutput(head, previousOutput) : undefined;
      if (head && filtered !== undefined) this.outputs.set(head, filtered);
      if (head && this.xargsRuns.has(head) && previousOutput !== undefined) this.feedXargs(head, previousOutput, scope);
      if (head) heads.push(head);
    }
  }

  /** `curl … | sh` never runs; `echo 'ls' | sh` is judged as the script it pipes. */
  private pipedInto(reader: ShellCommand, upstream: ShellCommand[], scope: Scope): void {
    const name = reader.name ?? 'the command';
    if (upstream.some(downloads)) {
      this.blocks.push(`pipes content downloaded from the network into \`${name}\``);
      return;
    }
    const previous = upstream[upstream.length - 1];
    const text = previous ? this.outputs.get(previous) : undefined;
    if (text !== undefined) this.feedStdin(reader, text, scope);
    else if (previous) reader.concerns.push(`runs commands piped from \`${previous.name ?? 'a command'}\`, which are only known at run time`);
  }

  private push(command: ShellCommand, scope: Scope, effects: Effects | undefined): void {
    if (effects) this.addEffects(command, effects, scope.cwd);
    this.commands.push(command);
    this.levels.set(command, this.level);
  }

  private addEffects(command: ShellCommand, effects: Effects, cwd: string | null): void {
    for (const arg of effects.reads) command.reads.push({ arg, cwd });
    for (const arg of effects.writes) command.writes.push({ arg, cwd });
  }
}

/** The output of a filter given known input (`cat`, `base64 -d`, `rev`, `xxd -r -p`), or undefined. */
function filterOutput(command: ShellCommand, input: string): string | undefined {
  const args = command.effective.slice(1).map((a) => a.value);
  if (args.some((a) => a === null)) return undefined;
  if (command.name === 'cat' && !args.length) return input;
  if (command.name === 'rev' && !args.length) return input.split('\n').map((line) => [...line].reverse().join('')).join('\n');
  if (command.name === 'base64' && args.length && args.every((a) => ['-d', '--decode', '-D', '-i', '--ignore-garbage', '-di'].includes(a!))) return Buffer.from(input.replace(/\s+/g, ''), 'base64').toString('utf8');
  if ((command.name === 'xxd' && args.join(' ') === '-r -p') || (command.name === 'xxd' && args.join(' ') === '-p -r') || (command.name === 'xxd' && args.join(' ') === '-rp'))
    return Buffer.from(input.replace(/\s+/g, ''), 'hex').toString('utf8');
  return undefined;
}

/** True when a directory (null: unknown) holds a name starting with `-`, so a leading glob could expand to an option. */
function mayListOptions(dir: string | null): boolean {
  if (dir === null) return true;
  try {
    return readdirSync(dir).some((name) => name.startsWith('-'));
  } catch {
    return false;
  }
}

function isPatternNode(node: SyntaxNode, item: SyntaxNode): boolean {
  return item.childrenForFieldName('value').some((v) => v.id === node.id);
}

function containsCommandNamed(node: SyntaxNode, name: string): boolean {
  if (node.type === 'command' && node.childForFieldName('name')?.text === name) return true;
  return node.namedChildren.some((child) => containsCommandNamed(child, name));
}
