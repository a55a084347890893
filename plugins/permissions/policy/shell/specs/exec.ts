import { hasOption, optionValues, parseArgs } from '../argv.js';
import type { Judge, Verdict } from '../spec.js';
import { DENO_CHECK, judgeRun, NODE_TEST, PYTEST } from './runners.js';
import { DYNAMIC, type Arg } from '../types.js';

/** Shells: `-c STRING` runs STRING, an operand runs a script file, nothing runs standard input. */
const shell: Judge = (args, _context, name) => {
  const scripts: Arg[] = [];
  let command = false;
  let fromStdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === null || !/^[-+]/.test(text) || text === '-' || text === '--') break;
    if (text === '--version' || text === '--help') return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
    if (text === '-o' || text === '+o' || text === '-O' || text === '+O' || text === '--rcfile' || text === '--init-file') {
      i++;
      continue;
    }
    if (!text.startsWith('--') && text.slice(1).includes('c')) command = true;
    if (!text.startsWith('--') && text.slice(1).includes('s')) fromStdin = true;
  }
  if (args[i]?.value === '--' || args[i]?.value === '-') i++;
  const operand = args[i];
  if (command) {
    if (operand) scripts.push(operand);
    return { risk: 'exec', reason: `\`${name} -c\` runs a shell script`, scripts };
  }
  // `-s`: commands come from standard input and the operands are only arguments.
  if (operand && !fromStdin) return { risk: 'exec', reason: `\`${name}\` runs the script ${operand.value ?? '(computed at run time)'}`, reads: [operand] };
  return { risk: 'exec', reason: `\`${name}\` runs commands from its input`, readsStdin: true };
};

/** Inline-code flags of interpreters: the value is a program in that language. */
const CODE_FLAGS: Record<string, string[]> = {
  python: ['-c'],
  node: ['-e', '--eval', '-p', '--print'],
  deno: [],
  ruby: ['-e'],
  perl: ['-e', '-E'],
  php: ['-r'],
  lua: ['-e'],
  Rscript: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-Command', '-command'],
};

const VALUE_FLAGS: Record<string, string[]> = {
  python: ['-m', '-W', '-X', '-Q'],
  node: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--input-type', '--conditions', '-C', '--env-file', '--title'],
  ruby: ['-r', '-I', '-C', '-E', '-F'],
  perl: ['-I', '-M', '-m', '-x'],
  php: ['-c', '-d', '-f', '-z'],
  lua: ['-l'],
};

const VERSION_FLAGS: Record<string, string[]> = {
  python: ['--version', '-V', '--help', '-h'],
  node: ['--version', '-v', '--help', '-h'],
  perl: ['--version', '-v'],
  php: ['--version', '-v', '--help', '-h'],
};

function interpreter(family: keyof typeof CODE_FLAGS): Judge {
  const codeFlags = CODE_FLAGS[family] ?? [];
  const values = [...codeFlags, ...(VALUE_FLAGS[family] ?? [])];
  return (args, context, name) => {
    const parsed = parseArgs(args, { values, stopAtOperand: true });
    // Only flags that print and exit: `python -v` (verbose) or `ruby -v` would go on to run standard input.
    if (hasOption(parsed, ...(VERSION_FLAGS[family] ?? ['--version'])) && !parsed.operands.length && !codeFlags.some((f) => parsed.options.has(f)))
      return { risk: 'read', reason: `\`${name} --version\` only prints`, inert: true };
    const code = optionValues(parsed, ...codeFlags);
    const inPlace = family === 'perl' && [...parsed.options.keys()].some((k) => k === '-i');
    if (code.length) {
      const verdict: Verdict = { risk: 'exec', reason: `\`${name}\` runs inline ${family} code`, code };
      if (inPlace) return { ...verdict, risk: 'write', reason: '`perl -i` edits files in place', writes: parsed.operands };
      return { ...verdict, reads: parsed.operands };
    }
    if (family === 'python') {
      const module = optionValues(parsed, '-m')[0]?.value;
      if (module === 'pytest' || module === 'unittest') {
        // Everything after `-m MODULE` belongs to the module; python's own options before it must be harmless.
        const at = args.findIndex((a) => a.value === '-m' || a.value === `-m${module}`);
        const before = args.slice(0, at).filter((a) => !['-B', '-u', '-q', '-O', '-OO', '-b'].includes(a.value ?? ''));
        const rest = args.slice(at + (args[at]!.value === '-m' ? 2 : 1));
        const verdict = module === 'pytest' ? judgeRun(rest, PYTEST, context, `${name} -m pytest`) : judgeRun(rest, { flags: ['-v', '-q', '-f', '-b', '-c', '--failfast', '--verbose', '--quiet', '--buffer', '--catch', '--locals', '--durations'], values: ['-k', '-p', '-s', '-t', '--pattern', '--start-directory', '--top-level-directory'] }, context, `${name} -m unittest`);
        return before.length ? { ...verdict, concerns: [...(verdict.concerns ?? []), `\`${name}\` is given options before -m that assistant does not know`] } : verdict;
      }
      // `-m` puts the working directory first on the module path: a `json/` package in the project would run. `-I`/`-P` leave it out.
      const isolated = args.some((a) => /^-[A-Za-z]*[IP]/.test(a.value ?? '') && args.indexOf(a) < args.findIndex((b) => /^-m/.test(b.value ?? '')));
      if (module === 'json.tool' && isolated) return { risk: 'read', reason: `\`${name} -I -m json.tool\` only prints`, reads: parsed.operands.slice(0, 1), writes: parsed.operands.slice(1, 2) };
      if (module === 'http.server' || module === 'pip' || module === 'SimpleHTTPServer') return { risk: 'network', reason: `\`${name} -m ${module}\` reaches the network` };
      if (module) return { risk: 'exec', reason: `\`${name} -m ${module}\` runs a module` };
    }
    if (family === 'node' && args.some((a) => a.value === '--test')) return judgeRun(args, NODE_TEST, context, `${name} --test`);
    const script = parsed.operands[0];
    if (!script) return { risk: 'exec', reason: `\`${name}\` runs code from its input`, readsStdin: true };
    return { risk: 'exec', reason: `\`${name}\` runs ${script.value ?? 'a script computed at run time'}`, reads: [script] };
  };
}

const deno: Judge = (args, context, name) => {
  const parsed = parseArgs(args, { stopAtOperand: true });
  const sub = parsed.operands[0]?.value;
  const rest = args.slice(parsed.operands[0] ? args.indexOf(parsed.operands[0]) + 1 : args.length);
  if (sub === 'test' || sub === 'lint' || sub === 'check' || (sub === 'fmt' && rest.some((a) => a.value === '--check')))
    return judgeRun(rest, DENO_CHECK, context, `${name} ${sub}`);
  if (sub === 'eval') return { risk: 'exec', reason: `\`${name} eval\` runs inline code`, code: parseArgs(rest).operands.slice(0, 1) };
  if (hasOption(parsed, '--version', '-V', '--help', '-h') || sub === 'info' || sub === 'help') return { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
  return { risk: 'exec', reason: `\`${name} ${sub ?? ''}\` runs code`.trim() };
};

const evalJudge: Judge = (args) => ({ risk: 'exec', reason: '`eval` runs a string as shell commands', scripts: [joinArgs(args)] });

/** Joins words as the shell would before re-reading them (`eval a b` reads "a b"). */
export function joinArgs(args: Arg[]): Arg {
  const template = args.map((a) => a.template).join(' ');
  return { value: template.includes(DYNAMIC) ? null : template, template, glob: false };
}

const source: Judge = (args, _context, name) => {
  const file = args[0];
  return { risk: 'exec', reason: `\`${name}\` runs the commands in ${file?.value ?? 'a file'}`, reads: file ? [file] : [] };
};

const XARGS_VALUES = ['-I', '-i', '-n', '-L', '-l', '-P', '-d', '-E', '-e', '-s', '-a', '--arg-file', '--delimiter', '--max-args', '--max-lines', '--max-procs', '--replace', '--eof', '--max-chars', '--process-slot-var'];

const xargs: Judge = (args) => {
  const parsed = parseArgs(args, { values: XARGS_VALUES, stopAtOperand: true });
  const first = parsed.operands[0];
  const command = first ? args.slice(args.indexOf(first)) : [{ value: 'echo', template: 'echo', glob: false }];
  const input: Arg = { value: null, template: DYNAMIC, glob: false };
  return {
    risk: 'read',
    reason: '`xargs` runs a command on its input',
    reads: optionValues(parsed, '-a', '--arg-file'),
    runs: [[...command, input]],
  };
};

const watch: Judge = (args) => {
  const parsed = parseArgs(args, { values: ['-n', '--interval', '-d', '--differences', '-q', '--equexit', '--chgexit'], stopAtOperand: true });
  const first = parsed.operands[0];
  const command = first ? args.slice(args.indexOf(first)) : [];
  return { risk: 'exec', reason: '`watch` runs a command repeatedly', scripts: command.length ? [joinArgs(command)] : [] };
};

/** GNU parallel: the words before `:::` are a command run through a shell once per input after it. */
const parallel: Judge = (args) => {
  const separator = args.findIndex((a) => a.value === ':::' || a.value === '::::' || a.value === ':::+' || a.value === '::::+');
  const head = separator < 0 ? args : args.slice(0, separator);
  const first = head.findIndex((a) => a.value === null || !a.value.startsWith('-'));
  const command = first < 0 ? [] : head.slice(first);
  const inputs = separator < 0 ? [] : args.slice(separator + 1).filter((a) => !/^:{3,4}\+?$/.test(a.value ?? ''));
  const input: Arg = { value: null, template: DYNAMIC, glob: false };
  const scripts = (inputs.length ? inputs : [input]).map((arg) => joinArgs(command.length ? [...command, arg] : [arg]));
  return { risk: 'exec', reason: '`parallel` runs commands through a shell', scripts };
};

const trap: Judge = (args) => {
  const operands = parseArgs(args).operands;
  if (!operands.length || hasOption(parseArgs(args), '-l', '-p')) return { risk: 'read', reason: '`trap` only prints', inert: true };
  return { risk: 'exec', reason: '`trap` sets a command to run on a signal', scripts: operands.slice(0, 1) };
};

const redefine = (what: string): Judge => (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` ${what}` });

/** Commands that run other code: shells, interpreters, eval, xargs. */
export const execSpecs: Record<string, Judge> = {
  sh: shell,
  bash: shell,
  zsh: shell,
  dash: shell,
  ksh: shell,
  mksh: shell,
  ash: shell,
  fish: shell,
  csh: shell,
  tcsh: shell,
  python: interpreter('python'),
  python2: interpreter('python'),
  python3: interpreter('python'),
  pypy: interpreter('python'),
  pypy3: interpreter('python'),
  node: interpreter('node'),
  nodejs: interpreter('node'),
  deno,
  ruby: interpreter('ruby'),
  perl: interpreter('perl'),
  php: interpreter('php'),
  lua: interpreter('lua'),
  luajit: interpreter('lua'),
  Rscript: interpreter('Rscript'),
  osascript: interpreter('osascript'),
  pwsh: interpreter('pwsh'),
  powershell: interpreter('pwsh'),
  eval: evalJudge,
  source,
  '.': source,
  xargs,
  watch,
  trap,
  parallel,
  // An alias body is a script that may run later: judged now, so hard blocks see it.
  alias: (args) => ({ risk: 'exec', reason: '`alias` changes what command names mean', scripts: args.flatMap((a) => (a.value?.includes('=') ? [{ value: a.value.slice(a.value.indexOf('=') + 1), template: a.template.slice(a.template.indexOf('=') + 1), glob: false }] : [])) }),
  unalias: redefine('changes what command names mean'),
  shopt: redefine('changes shell options'),
  enable: redefine('changes shell builtins'),
  complete: redefine('changes shell completion'),
  script: redefine('runs a shell'),
  expect: redefine('runs a script'),
  java: redefine('runs a program'),
};

/** Interpreter names like `python3.12` map to their family. */
export function interpreterFamily(name: string): string | undefined {
  if (/^python\d+(\.\d+)*$/.test(name)) return 'python3';
  if (/^(node|nodejs)\d+$/.test(name)) return 'node';
  if (/^ruby\d+(\.\d+)*$/.test(name)) return 'ruby';
  if (/^perl\d+(\.\d+)*$/.test(name)) return 'perl';
  if (/^php\d+(\.\d+)*$/.test(name)) return 'php';
  return undefined;
}

/** Names of commands that run shell scripts from standard input or `-c` (for `curl … | sh`). */
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
/** Interpreters that run code piped into them. */
export const INTERPRETERS = new Set(['python', 'python2', 'python3', 'pypy', 'pypy3', 'node', 'nodejs', 'ruby', 'perl', 'php', 'lua', 'deno', 'bun', 'pwsh', 'powershell', 'osascript']);
