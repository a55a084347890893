import { basename } from 'node:path';
import { hasOption, optionValues, parseArgs, type ArgSpec } from './argv.js';
import { DYNAMIC, type Arg } from './types.js';

/**
 * Variables that change nothing a program runs or loads: setting one in front of a command (or
 * exporting it) keeps the command provable. Any other name might steer a program (MAKEFLAGS,
 * RIPGREP_CONFIG_PATH, GIT_*, LESSOPEN, *_OPTIONS, ...): not proven.
 */
const HARMLESS_VARIABLES = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLORTERM|TERM|COLUMNS|LINES|CI|TIME_STYLE|LS_COLORS|QUOTING_STYLE|GREP_COLOR|GREP_COLORS|BLOCK_SIZE|BLOCKSIZE|DU_BLOCK_SIZE|DF_BLOCK_SIZE|LS_BLOCK_SIZE|POSIXLY_CORRECT|TABSIZE)$/;

/** True when setting this variable for a command cannot change what it runs, loads or writes (a locale given as a path loads files). */
export function isHarmlessVariable(name: string, value?: string | null): boolean {
  if (/^(LANG|LANGUAGE|LC_[A-Z]+|TZ)$/.test(name) && (value === null || value?.includes('/'))) return false;
  return HARMLESS_VARIABLES.test(name);
}

/**
 * For a plain shell assignment (`x=1`, not exported): lowercase names are the script's own, unless
 * programs read them too (`http_proxy`, `npm_config_*`); any other name may already be exported.
 */
export function isHarmlessShellVariable(name: string, value?: string | null): boolean {
  if (isHarmlessVariable(name, value)) return true;
  return /^[a-z_][a-z0-9_]*$/.test(name) && !/(^|_)proxy$|^npm_config_|^pnpm_|^yarn_|^bun_|^no_proxy$/.test(name);
}

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
function skipOptions(args: Arg[], values: readonly string[]): number {
  let i = 0;
  for (; i < args.length; i++) {
    const text = args[i]!.value;
    if (text === '--') return i + 1;
    if (text === null || !text.startsWith('-') || text === '-') return i;
    if (values.includes(text)) i++;
  }
  return i;
}

/**
 * A wrapper read with a strict spec: its options (unknown ones make it unproven), then `skip`
 * operands of its own (a duration, a lock file), then the command. `under` names a wrapper that
 * changes how the command runs (a namespace, a lock, a trace file): the inner command is judged
 * for hard blocks but never proven safe.
 */
function wrapper(spec: ArgSpec, skip = 0, under?: string, scriptOptions: readonly string[] = []): Strip {
  return (args, out) => {
    const parsed = parseArgs(args, { ...spec, stopAtOperand: true });
    for (const option of parsed.unknown) out.concerns.push(`the wrapper option ${option} is not known to assistant`);
    if (under) out.concerns.push(`runs the command under \`${under}\``);
    for (const script of optionValues(parsed, ...scriptOptions)) out.scripts.push(script);
    const first = parsed.operands[skip];
    if (!first) return scriptOptions.some((o) => parsed.options.has(o)) ? [] : undefined;
    return args.slice(args.indexOf(first));
  };
}

/** env: options, then NAME=value words, then the command; `-S`/`--split-string` splits a string into a command. */
const ENV: ArgSpec = {
  flags: ['-i', '-0', '-v', '--ignore-environment', '--null', '--debug', '--list-signal-handling', '--help', '--version'],
  values: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string', '-P', '-a', '--argv0'],
  optional: ['--block-signal', '--default-signal', '--ignore-signal'],
  stopAtOperand: true,
};
const env: Strip = (args, out) => {
  const parsed = parseArgs(args, ENV);
  for (const option of parsed.unknown) out.concerns.push(`the \`env\` option ${option} is not known to assistant`);
  if (hasOption(parsed, '-P', '-a', '--argv0')) out.concerns.push('`env -P/-a` changes how the command is found or named');
  const cwd = optionValues(parsed, '-C', '--chdir').at(-1);
  if (cwd) out.cwd = cwd;
  const split = optionValues(parsed, '-S', '--split-string');
  const operands = parsed.operands;
  let i = 0;
  for (; i < operands.length; i++) {
    const name = operands[i]!.value?.match(/^([A-Za-z_][A-Za-z0-9_]*)=/)?.[1];
    if (!name) break;
    if (!isHarmlessVariable(name, operands[i]!.value!.slice(name.length + 1))) out.concerns.push(`sets ${name}, which may change what programs run or load`);
  }
  const rest = operands.slice(i);
  if (split.length) {
    // `env -S 'a b' c`: the string is split into words and the rest follows; the shell judges it as a script.
    const text = [...split, ...rest].map((a) => a.template).join(' ');
    out.scripts.push({ value: text.includes(DYNAMIC) ? null : text, template: text, glob: false });
    return [];
  }
  return rest;
};

const NONE: ArgSpec = { flags: [] };

const WRAPPERS: Record<string, Strip> = {
  env,
  command: (args) => {
    if (args.some((a) => a.value === '-v' || a.value === '-V')) return undefined;
    return args.slice(skipOptions(args, []));
  },
  builtin: (args) => args,
  exec: wrapper({ flags: ['-c', '-l'], values: ['-a'] }),
  nohup: wrapper(NONE),
  setsid: wrapper({ flags: ['-c', '-f', '-w', '--ctty', '--fork', '--wait'] }),
  time: (args, out) => {
    const parsed = parseArgs(args, { flags: ['-p', '-v', '-a', '-q', '--portability', '--verbose', '--append', '--quiet'], values: ['-f', '--format', '-o', '--output'], stopAtOperand: true });
    for (const option of parsed.unknown) out.concerns.push(`the wrapper option ${option} is not known to assistant`);
    if (hasOption(parsed, '-o', '--output')) out.concerns.push('`time -o` writes a file');
    const first = parsed.operands[0];
    return first ? args.slice(args.indexOf(first)) : undefined;
  },
  nice: wrapper({ flags: [], values: ['-n', '--adjustment'], numeric: true }),
  ionice: (args, out) => (args.some((a) => a.value === '-p' || a.value === '-P' || a.value === '-u') ? undefined : wrapper({ flags: ['-t', '--ignore'], values: ['-c', '-n', '--class', '--classdata'] })(args, out)),
  timeout: wrapper({ flags: ['--foreground', '--preserve-status', '-v', '--verbose', '-f', '-p'], values: ['-s', '--signal', '-k', '--kill-after'] }, 1),
  gtimeout: wrapper({ flags: ['--foreground', '--preserve-status', '-v', '--verbose'], values: ['-s', '--signal', '-k', '--kill-after'] }, 1),
  stdbuf: wrapper({ flags: [], values: ['-i', '-o', '-e', '--input', '--output', '--error'] }),
  unbuffer: wrapper({ flags: ['-p'] }),
  chronic: wrapper({ flags: ['-e', '-v'] }),
  caffeinate: wrapper({ flags: ['-d', '-i', '-m', '-s', '-u'], values: ['-t', '-w'] }),
  busybox: (args) => args,
  // Not transparent: the command runs in another namespace, root, lock, trace or session.
  flock: (args, out) => {
    const parsed = parseArgs(args, { flags: ['-s', '-x', '-u', '-n', '-o', '-e', '-F', '--shared', '--exclusive', '--unlock', '--nonblock', '--nb', '--close', '--no-fork', '--verbose'], values: ['-w', '-E', '--wait', '--timeout', '--conflict-exit-code', '-c', '--command'], stopAtOperand: true });
    out.concerns.push('runs the command under `flock`, which creates its lock file');
    const commands = optionValues(parsed, '-c', '--command');
    if (commands.length) {
      out.scripts.push(...commands);
      return [];
    }
    const lock = parsed.operands[0];
    if (!lock) return undefined;
    const after = args.slice(args.indexOf(lock) + 1);
    if (after[0]?.value === '-c' || after[0]?.value === '--command') {
      if (after[1]) out.scripts.push(after[1]);
      return [];
    }
    return after.length ? after : undefined;
  },
  unshare: wrapper({ flags: ['-m', '-u', '-i', '-n', '-p', '-U', '-C', '-T', '-f', '-r', '-c', '--fork', '--map-root-user', '--map-current-user', '--kill-child', '--mount-proc', '--mount', '--uts', '--ipc', '--net', '--pid', '--user', '--cgroup', '--time', '--keep-caps'], values: ['--propagation', '--setgroups', '-R', '--root', '-w', '--wd', '-S', '--setuid', '-G', '--setgid', '--map-user', '--map-group', '--map-users', '--map-groups', '--monotonic', '--boottime'] }, 0, 'unshare'),
  chroot: wrapper({ flags: ['--skip-chdir'], values: ['--userspec', '--groups'] }, 1, 'chroot'),
  script: (args, out) => {
    const parsed = parseArgs(args, { flags: ['-a', '-e', '-f', '-q', '-k', '--append', '--return', '--flush', '--quiet', '--force', '--echo'], values: ['-c', '--command', '-t', '-T', '-B', '-I', '-O', '-E', '-m', '--timing', '--log-timing', '--log-io', '--log-in', '--log-out', '--logging-format'] });
    out.concerns.push('`script` records a session to a file');
    for (const script of optionValues(parsed, '-c', '--command')) out.scripts.push(script);
    return [];
  },
  strace: wrapper({ flags: ['-f', '-F', '-c', '-C', '-d', '-D', '-q', '-r', '-t', '-T', '-v', '-V', '-x', '-y', '-k', '-w', '-z', '-Z', '-i', '-n', '-h', '--follow-forks', '--summary-only', '--summary'], values: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-X', '-P', '-S', '-O', '-U', '--output', '--trace', '--signal', '--attach', '--string-limit', '--user', '--env'] }, 0, 'strace'),
  ltrace: wrapper({ flags: ['-f', '-c', '-C', '-d', '-h', '-i', '-r', '-S', '-t', '-T', '-V', '-b', '-w'], values: ['-o', '-e', '-p', '-s', '-u', '-a', '-l', '-n', '-x', '-A', '-D', '-F', '-L', '--output', '--library'] }, 0, 'ltrace'),
  taskset: (args, out) => (args.some((a) => /^(-\w*p|--pid)$/.test(a.value ?? '')) ? undefined : wrapper({ flags: ['-a', '-c', '--all-tasks', '--cpu-list'] }, 1, 'taskset')(args, out)),
  chrt: (args, out) => (args.some((a) => /^(-\w*p|--pid)$/.test(a.value ?? '')) ? undefined : wrapper({ flags: ['-b', '-d', '-f', '-i', '-o', '-r', '-a', '-m', '-v', '-R', '--batch', '--deadline', '--fifo', '--idle', '--other', '--rr', '--all-tasks', '--max', '--verbose', '--reset-on-fork'], values: ['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline'] }, 1, 'chrt')(args, out)),
  nsenter: wrapper({ flags: ['-a', '-m', '-u', '-i', '-n', '-p', '-U', '-C', '-T', '-F', '-Z', '-e', '--all', '--no-fork', '--preserve-credentials', '--follow-context', '--env'], values: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd', '-W', '--wdns'] }, 0, 'nsenter'),
  setpriv: wrapper({ flags: ['-d', '--dump', '--clear-groups', '--keep-groups', '--init-groups', '--no-new-privs', '--reset-env'], values: ['--reuid', '--regid', '--ruid', '--euid', '--rgid', '--egid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile', '--landlock-access', '--landlock-rule'] }, 0, 'setpriv'),
  runuser: wrapper({ flags: ['-l', '-m', '-p', '-P', '--login', '--preserve-environment', '--pty'], values: ['-u', '--user', '-g', '--group', '-G', '--supp-group', '-s', '--shell', '-w', '--whitelist-environment', '-c', '--command', '--session-command'] }, 0, 'runuser', ['-c', '--command', '--session-command']),
  sg: (args, out) => {
    out.concerns.push('runs the command under `sg` (another group)');
    const c = args.findIndex((a) => a.value === '-c');
    if (c >= 0 && args[c + 1]) {
      out.scripts.push(args[c + 1]!);
      return [];
    }
    const rest = args.slice(skipOptions(args, []) + 1);
    if (!rest.length) return undefined;
    const text = rest.map((a) => a.template).join(' ');
    out.scripts.push({ value: text.includes(DYNAMIC) ? null : text, template: text, glob: false });
    return [];
  },
  firejail: (args, out) => {
    out.concerns.push('runs the command under `firejail`');
    const i = args.findIndex((a) => a.value === null || !a.value.startsWith('-'));
    return i < 0 ? undefined : args.slice(i);
  },
  'systemd-run': wrapper({ flags: ['--user', '--system', '--scope', '-t', '--pty', '-P', '--pipe', '-q', '--quiet', '--wait', '-G', '--collect', '--no-block', '-S', '--shell', '-r', '--remain-after-exit', '--send-sighup', '--no-ask-password', '--same-dir', '-d'], values: ['-u', '--unit', '-p', '--property', '-E', '--setenv', '--description', '--slice', '-M', '--machine', '-H', '--host', '--working-directory', '--uid', '--gid', '--nice', '--service-type', '--on-active', '--on-boot', '--on-calendar', '--timer-property', '--path-property', '--socket-property'] }, 0, 'systemd-run'),
  'xvfb-run': wrapper({ flags: ['-a', '--auto-servernum', '-l', '--listen-tcp', '-d', '--auto-display', '-h', '--help'], values: ['-e', '--error-file', '-f', '--auth-file', '-n', '--server-num', '-p', '--xauth-protocol', '-s', '--server-args', '-w', '--wait'] }, 0, 'xvfb-run'),
  dotenv: (args, out) => {
    const parsed = parseArgs(args, { flags: ['-p', '-o', '--override', '--debug', '--quiet'], values: ['-e', '-v', '-c'], stopAtOperand: true });
    out.concerns.push('`dotenv` loads variables from a file, which may change what the command runs');
    const first = parsed.operands[0];
    return first ? args.slice(args.indexOf(first)) : undefined;
  },
  direnv: (args, out) => {
    if (args[0]?.value !== 'exec' || args.length < 3) return undefined;
    out.concerns.push('`direnv exec` loads the environment of a directory, which may change what the command runs');
    return args.slice(2);
  },
  fakeroot: wrapper({ flags: ['-u', '--unknown-is-real'], values: ['-l', '--lib', '--faked', '-s', '-i', '-b'] }, 0, 'fakeroot'),
  numactl: (args, out) => {
    out.concerns.push('runs the command under `numactl`');
    const i = args.findIndex((a) => a.value === null || !a.value.startsWith('-'));
    return i < 0 ? undefined : args.slice(i);
  },
  torsocks: wrapper({ flags: ['-i', '-d', '-q', '--isolate', '--quiet', '--debug'], values: ['-u', '-p', '-a', '-P', '--user', '--pass', '--address', '--port'] }, 0, 'torsocks'),
  proxychains: wrapper({ flags: ['-q'], values: ['-f'] }, 0, 'proxychains'),
  proxychains4: wrapper({ flags: ['-q'], values: ['-f'] }, 0, 'proxychains'),
  faketime: wrapper({ flags: ['-m', '--exclude-monotonic'], values: ['-f', '-p', '--date-prog'] }, 1, 'faketime'),
  valgrind: (args, out) => {
    out.concerns.push('runs the command under `valgrind`');
    const i = args.findIndex((a) => a.value === null || !a.value.startsWith('-'));
    return i < 0 ? undefined : args.slice(i);
  },
  catchsegv: wrapper(NONE, 0, 'catchsegv'),
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
    if (allowSudo && PRIVILEGED[name] && !WRAPPERS[name]) out.concerns.push(`runs as another user (${name})`);
    const rest = strip(out.argv.slice(1), out);
    if (rest === undefined || (!rest.length && !out.scripts.length)) break;
    out.argv = rest;
    if (!rest.length) break;
  }
  return out;
}
