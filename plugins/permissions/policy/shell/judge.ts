import { readdirSync } from 'node:fs';
import { downloads, runsCode } from './downloads.js';
import type { SyntaxNode } from './parser.js';
import type { Effects } from './redirects.js';
import { cloneScope, codeLiterals, describeDynamic, possiblePaths, subdirectory, type Scope } from './scope.js';
import type { Judge, Verdict } from './spec.js';
import { SHELLS } from './specs/exec.js';
import { judgeFor } from './specs/index.js';
import { DYNAMIC, type Arg, type ShellCommand, type ShellPath } from './types.js';
import { commandName, unwrap } from './wrappers.js';

/** Where and how a script is judged. */
export interface WalkOptions {
  cwd: string;
  home: string | null;
  /** Unwrap sudo/doas and judge the command they run (still never auto-allowed). */
  allowSudo: boolean;
  /** Test and lint runs count as safe. */
  trustTests: boolean;
}

/** Calls that delete files in the languages inline code is written in: their path literals are judged as `rm -rf` targets. */
const DELETION_API = /\b(rmtree|rmSync|rmdirSync|unlinkSync|rm_rf|rm_r|remove_dir_all|remove_file|removedirs|unlink|rmdir|rimraf|deleteRecursively|delete_tree|Remove-Item|os\.remove|fs\.rm|fs\.promises\.rm|FileUtils\.rm)\b/;

/**
 * The judging half of the shell walker: one simple command (after expansion) becomes a
 * `ShellCommand` with its verdict, and what flows between commands is followed (payloads, pipes
 * into shells, xargs input, inline code). The syntax-tree half (walk.ts) feeds it commands.
 */
export abstract class CommandJudge {
  readonly commands: ShellCommand[] = [];
  readonly blocks: string[] = [];
  readonly concerns: string[] = [];
  protected level = 0;
  protected payloadDepth = 0;
  protected readonly levels = new Map<ShellCommand, number>();
  /** Static text a command prints (echo 'ls'), for `echo 'ls' | sh`. */
  protected readonly outputs = new Map<ShellCommand, string>();
  /** Commands that run code read from standard input. */
  protected readonly stdinReaders = new Set<ShellCommand>();
  /** Stdin readers whose input was literal text, judged as a script. */
  protected readonly fedLiterally = new Set<ShellCommand>();
  /** Commands whose output goes into a pipe rather than to the substitution or terminal. */
  protected readonly piped = new Set<ShellCommand>();
  /** The commands `xargs` runs, with their input still a run-time value: judged again once the input is known. */
  protected readonly xargsRuns = new Map<ShellCommand, Arg[][]>();
  /** Set while a command's words are evaluated: a substitution in them downloads something. */
  protected downloadedSubstitution = false;

  constructor(protected readonly options: WalkOptions) {}

  /** Runs a script given as a string (`sh -c`, `eval`, a here-doc fed to a shell). */
  protected abstract walkPayload(payload: Arg | string, scope: Scope): void;
  /** Walks one node of the syntax tree. */
  protected abstract walk(node: SyntaxNode, scope: Scope): void;

  /** Judges one simple command (after expansion) and everything it runs. */
  protected judge(argv: Arg[], scope: Scope, effects: Effects | undefined, prefixConcerns: string[], downloaded: boolean): ShellCommand {
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
  protected feedStdin(command: ShellCommand, text: string, scope: Scope): void {
    this.fedLiterally.add(command);
    if (SHELLS.has(command.name ?? '')) this.walkPayload(text, scope);
    else this.scanCode(text, command, scope);
  }

  /**
   * Code in another language (python -c, node -e) cannot be parsed here, but its string literals
   * can: shell commands in them are judged (os.system('rm -rf /')) and paths are checked for secrets.
   */
  protected scanCode(code: string, command: ShellCommand, scope: Scope): void {
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

  protected walkPipeline(elements: SyntaxNode[], scope: Scope, upstream: ShellCommand[]): void {
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

  protected push(command: ShellCommand, scope: Scope, effects: Effects | undefined): void {
    if (effects) this.addEffects(command, effects, scope.cwd);
    this.commands.push(command);
    this.levels.set(command, this.level);
  }

  protected addEffects(command: ShellCommand, effects: Effects, cwd: string | null): void {
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
