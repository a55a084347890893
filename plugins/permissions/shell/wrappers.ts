import { basename } from 'node:path';
import type { Arg } from './types.js';
import { literal } from './words.js';

/** Environment variables that change which program runs or what it loads. */
export const DANGEROUS_VARIABLES = /^(PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|IFS|CDPATH|GLOBIGNORE|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|GIT_\w+|PAGER|MANPAGER|GIT_PAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|npm_config_\w+|NPM_CONFIG_\w+|BROWSER|TERMINAL|XDG_CONFIG_HOME|HOME|ZDOTDIR|HISTFILE|TMPDIR)$/;

/** Programs that gain privileges: blocked by default. */
export const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'run0', 'sudoedit']);

/** Directories whose programs are the system's own (a `./ls` is not `ls`). */
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin\/|^\/opt\/homebrew\/bin\/|^\/usr\/libexec\/|^\/nix\/var\/nix\/profiles\/|^\/run\/current-system\/sw\/bin\//;

/** The command name as looked up: basename of a path. Null when computed at run time. */
export function commandName(arg: Arg | undefined): { name: string | null; localProgram: boolean } {
  const value = arg?.value;
  if (value === null || value === undefined || value === '') return { name: null, localProgram: false };
  if (!value.includes('/')) return { name: value, localProgram: false };
  return { name: basename(value), localProgram: !SYSTEM_BIN.test(value) };
}

/** What unwrapping found on the way to the real command. */
export interface Unwrapped {
  /** The real command and its arguments. */
  argv: Arg[];
  concerns: string[];
  /** The directory the command runs in, when a wrapper changes it (`env -C dir`). */
  cwd?: Arg;
  /** Shell text a wrapper runs as a script (`env -S "..."`, `su -c "..."`). */
  scripts: Arg[];
}

type Strip = (args: Arg[], out: Unwrapped) => Arg[] | undefined;

/** Skips options; `values` take a value. Returns the index of the first operand. */
function skipOptions(args: Arg[], values: readonly string[], flagsWithLongValue = false): number {
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === '--') return i + 1;
    if (text === null || !text.startsWith('-') || text === '-') return i;
    if (values.includes(text)) i++;
    else if (flagsWithLongValue && text.startsWith('--') && !text.includes('=') && values.includes(text)) i++;
  }
  return i;
}

const env: Strip = (args, out) => {
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === null) break;
    if (text === '--') {
      i++;
      break;
    }
    if (text === '-u' || text === '--unset') i++;
    else if (text === '-C' || text === '--chdir') out.cwd = args[++i];
    else if (text.startsWith('--chdir=')) out.cwd = literal(text.slice(8));
    else if (text === '-S' || text === '--split-string') {
      const payload = args[++i];
      if (payload) out.scripts.push({ ...payload, value: payload.value === null ? null : [payload.value, ...args.slice(i + 1).map((a) => a.value ?? '')].join(' ') });
      return [];
    } else if (!text.startsWith('-') || text === '-') break;
  }
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    const name = text?.match(/^([A-Za-z_][A-Za-z0-9_]*)=/)?.[1];
    if (!name) break;
    if (DANGEROUS_VARIABLES.test(name)) out.concerns.push(`sets ${name}, which changes what programs run`);
  }
  return args.slice(i);
};

const WRAPPERS: Record<string, Strip> = {
  env,
  command: (args) => {
    if (args.some((a) => a.value === '-v' || a.value === '-V')) return undefined;
    return args.slice(skipOptions(args, []));
  },
  builtin: (args) => args,
  exec: (args) => args.slice(skipOptions(args, ['-a'])),
  nohup: (args) => args.slice(skipOptions(args, [])),
  setsid: (args) => args.slice(skipOptions(args, [])),
  time: (args, out) => {
    const i = skipOptions(args, ['-f', '--format', '-o', '--output']);
    if (args.slice(0, i).some((a) => a.value === '-o' || a.value === '--output')) out.concerns.push('`time -o` writes a file');
    return args.slice(i);
  },
  nice: (args) => args.slice(skipOptions(args, ['-n', '--adjustment'])),
  ionice: (args) => (args.some((a) => a.value === '-p' || a.value === '-P' || a.value === '-u') ? undefined : args.slice(skipOptions(args, ['-c', '-n', '--class', '--classdata']))),
  timeout: (args) => args.slice(skipOptions(args, ['-s', '--signal', '-k', '--kill-after']) + 1),
  gtimeout: (args) => args.slice(skipOptions(args, ['-s', '--signal', '-k', '--kill-after']) + 1),
  stdbuf: (args) => args.slice(skipOptions(args, ['-i', '-o', '-e'])),
  unbuffer: (args) => args.slice(skipOptions(args, [])),
  chronic: (args) => args.slice(skipOptions(args, [])),
  caffeinate: (args) => args.slice(skipOptions(args, ['-t', '-w'])),
  busybox: (args) => args,
};

/** sudo-like programs, unwrapped only when the configuration allows them. */
const PRIVILEGED: Record<string, Strip> = {
  sudo: (args) => args.slice(skipOptions(args, ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-T', '-U', '--user', '--group', '--prompt', '--chdir'])),
  doas: (args) => args.slice(skipOptions(args, ['-u', '-C'])),
  run0: (args) => args.slice(skipOptions(args, ['-u', '--user', '-g', '--group', '-D', '--chdir', '--setenv'])),
  pkexec: (args) => args.slice(skipOptions(args, ['--user'])),
  su: (args, out) => {
    const c = args.findIndex((a) => a.value === '-c' || a.value === '--command');
    if (c >= 0 && args[c + 1]) out.scripts.push(args[c + 1]!);
    return [];
  },
};

/**
 * Removes transparent wrappers (`env X=1`, `command`, `nice -n 5`, `timeout 10`, `nohup`, ...)
 * until the real command is first. sudo-like programs are unwrapped only with `allowSudo`.
 */
export function unwrap(argv: Arg[], allowSudo: boolean): Unwrapped {
  const out: Unwrapped = { argv, concerns: [], scripts: [] };
  for (let guard = 0; guard < 16 && out.argv.length; guard++) {
    const { name } = commandName(out.argv[0]);
    if (name === null) break;
    const strip = WRAPPERS[name] ?? (allowSudo ? PRIVILEGED[name] : undefined);
    if (!strip) break;
    if (allowSudo && PRIVILEGED[name]) out.concerns.push(`runs as another user (${name})`);
    const rest = strip(out.argv.slice(1), out);
    if (rest === undefined || (!rest.length && !out.scripts.length)) break;
    out.argv = rest;
    if (!rest.length) break;
  }
  return out;
}
