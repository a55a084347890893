import { parseArgs } from '../argv.js';
import { fixed, inert, type Judge } from '../spec.js';
import { isHarmlessShellVariable, isHarmlessVariable } from '../wrappers.js';

/** A word that names an array element: bash evaluates the subscript as arithmetic, which runs `$(...)` inside it. */
const SUBSCRIPT = /\[/;

/**
 * Builtins that assign variables (`read`, `declare`, `export`): a subscript in a name runs code,
 * `-n` makes a reference, `-x` exports, and a name programs read may steer what runs later.
 */
const assigning = (what: string): Judge => (args, _context, name) => {
  const exported = name === 'export' || args.some((a) => /^-\w*x/.test(a.value ?? ''));
  const unsafe = args.filter((a) => {
    if (a.value === null || SUBSCRIPT.test(a.template)) return true;
    if (/^[-+]/.test(a.value)) return /^[-+]\w*[nf]/.test(a.value) && name !== 'read';
    const variable = a.value.split('=')[0]!;
    return exported ? !isHarmlessVariable(variable) : !isHarmlessShellVariable(variable);
  });
  if (unsafe.length) return { risk: 'exec', reason: `\`${name}\` is given ${unsafe.map((a) => a.template.replaceAll('\u0000', '…')).join(', ')}: a subscript, a reference or a variable that may steer programs` };
  return { risk: 'read', reason: `\`${name}\` ${what}`, inert: true };
};

/** `printf` prints its format; `printf -v NAME` assigns instead, and NAME may hide code in a subscript. */
const printf: Judge = (args, _context, name) => {
  if (args.some((a) => a.value === null ? false : /^-\w*v/.test(a.value)) || args[0]?.value === null) return { risk: 'exec', reason: `\`${name} -v\` assigns a variable whose name is evaluated` };
  return { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
};

/** `test` / `[`: `-v NAME` evaluates an array subscript in NAME, which can run code. */
const test: Judge = (args, _context, name) => {
  if (args.some((a) => a.value === '-v' || a.value === null)) return { risk: 'exec', reason: `\`${name} -v\` evaluates an array subscript, which can run code` };
  return { risk: 'read', reason: `\`${name}\` only tests`, inert: true };
};

/** `set` option letters and `-o` names that change nothing a later command's judgement depends on. */
/** A group of harmless letters; an `o` at its end takes the next word as an option name (`-euo pipefail`). */
const HARMLESS_SET_LETTERS = /^[-+][euxvnfCbhmt]*o?$/;
const HARMLESS_SET_OPTIONS = new Set(['errexit', 'nounset', 'xtrace', 'verbose', 'pipefail', 'noglob', 'noclobber', 'noexec', 'notify', 'hashall', 'monitor']);

/**
 * `set` prints variables, sets positional parameters (after `--`) or shell options. Some options
 * change what the commands after it do while their text stays the same: `-k` (`-o keyword`)
 * turns `NAME=value` arguments into environment variables (`set -k; git diff GIT_EXTERNAL_DIFF=./x`
 * runs ./x), `-a` exports every assignment, `-P` makes `cd ..` physical, `-T`/`-E` pass traps
 * into functions, `+B` stops brace expansion. Only the options listed above stay harmless.
 */
const set: Judge = (args, _context, name) => {
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === '--' || value === '-') break; // the rest are positional parameters
    if (value !== null && value.length > 1 && HARMLESS_SET_LETTERS.test(value)) {
      if (!value.endsWith('o')) continue;
      // `set -o` alone prints the options; otherwise the name that follows must be harmless.
      if (i + 1 === args.length || HARMLESS_SET_OPTIONS.has(args[i + 1]!.value ?? '')) {
        i++;
        continue;
      }
    }
    return { risk: 'exec', reason: `\`${name} ${args[i]!.template.replaceAll('\u0000', '…')}\` changes how the shell runs the commands after it` };
  }
  return { risk: 'read', reason: `\`${name}\` prints variables or sets harmless shell options`, inert: true };
};

/** Shell builtins: variables, tests and the directory stack. */
export const builtinSpecs: Record<string, Judge> = {
  printf,
  set,
  test,
  '[': test,
  read: assigning('reads a line into variables'),
  declare: assigning('prints or sets variables'),
  typeset: assigning('prints or sets variables'),
  local: assigning('sets variables'),
  readonly: assigning('sets variables'),
  export: assigning('exports variables'),
  let: (_args, _context, name) => ({ risk: 'exec', reason: `\`${name}\` evaluates arithmetic, where array subscripts run code` }),
  compgen: (args, _context, name) =>
    args.some((a) => a.value === null || /^-\w*[CF]/.test(a.value)) ? { risk: 'exec', reason: `\`${name} -C/-F\` runs a command or function` } : { risk: 'read', reason: `\`${name}\` only lists`, inert: true },
  cd: (args) => {
    const operands = parseArgs(args).operands;
    const target = operands[0];
    if (!target) return { risk: 'read', reason: '`cd` changes directory', cd: 'home' };
    if (target.value === '-') return { risk: 'read', reason: '`cd -` changes directory', cd: 'unknown' };
    return { risk: 'read', reason: '`cd` changes directory', cd: target, reads: [target] };
  },
  pushd: (args) => {
    const target = parseArgs(args).operands[0];
    return { risk: 'read', reason: '`pushd` changes directory', cd: target && !/^[+-]\d*$/.test(target.value ?? '') ? target : 'unknown', reads: target ? [target] : [] };
  },
  popd: fixed('read', '`popd` changes directory', { cd: 'unknown' }),
  dirs: inert(),
  // Reached only as `command -v/-V name` (a lookup); other uses are unwrapped to the command they run.
  command: inert(),
};
