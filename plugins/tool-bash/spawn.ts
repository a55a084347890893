/**
 * The one place Bash starts processes: which shell, with which environment, in its own process
 * group so that a cancel kills everything the command started. The OS sandbox, when on, wraps the
 * shell here (sandbox.ts builds its command line).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, delimiter, isAbsolute } from 'node:path';
import { applyEnvironmentPolicy, type EnvironmentPolicy } from './env-policy.js';

/**
 * Runs in the shell: start in the kept directory, run the command in this same shell (so `cd`
 * and `exit` behave as typed), and on any exit report the final directory on fd 3.
 */
const SCRIPT = `trap 'pwd -P >&3' EXIT; cd -- "$1" || exit 1; eval "$2"`;

const WINDOWS_BASH = ['C:\\Program Files\\Git\\bin\\bash.exe', 'C:\\Program Files (x86)\\Git\\bin\\bash.exe'];
const POSIX_BASH = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'];
const SH_COMPATIBLE = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh', 'ash']);

let detected: string | undefined;

/** The shell commands run in: the configured one, else bash (Git Bash on Windows), else the user's POSIX shell, else /bin/sh. */
export function pickShell(configured?: string): string | undefined {
  if (configured) return configured;
  if (detected) return detected;
  if (process.platform === 'win32') {
    const local = process.env.LOCALAPPDATA ? `${process.env.LOCALAPPDATA}\\Programs\\Git\\bin\\bash.exe` : undefined;
    detected = [...WINDOWS_BASH, ...(local ? [local] : [])].find((p) => existsSync(p));
    if (!detected && spawnSync('bash.exe', ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0) detected = 'bash.exe';
    return detected;
  }
  const user = process.env.SHELL;
  detected = POSIX_BASH.find((p) => existsSync(p)) ?? (user && SH_COMPATIBLE.has(basename(user)) ? user : '/bin/sh');
  return detected;
}

/**
 * Variables that make the shell run something other than what the permission engine judged, which
 * assumes a plain bash: CDPATH sends `cd dir` to another folder (`cd Documents && rm -rf *` leaving
 * the project), BASH_ENV/ENV run a script before every command, SHELLOPTS/BASHOPTS switch on options
 * such as `keyword` or `cdable_vars`, exported functions (BASH_FUNC_name%%) replace commands, and
 * PS4 is expanded, command substitutions included, before each line `set -x` traces (bash takes it
 * from the environment unless it runs as root). Never passed, whatever the policy sets.
 */
const SHELL_STEERING = new Set(['CDPATH', 'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'PS4']);
const isShellSteering = (name: string) => SHELL_STEERING.has(name.toUpperCase()) || name.startsWith('BASH_FUNC_');

/**
 * PATH without its relative and empty entries (`.`, `node_modules/.bin`, `::`): those resolve
 * against wherever the command has `cd`ed, so `ls` could run a file the agent wrote there while
 * the engine judged /bin/ls. Absolute entries stay, in order.
 */
function withoutRelativeEntries(path: string): string {
  return path.split(delimiter).filter((entry) => isAbsolute(entry)).join(delimiter);
}

/** The environment for commands: ours through the environment policy (no credentials, nothing that steers the shell), with pagers and prompts that cannot block. */
export function commandEnv(policy: EnvironmentPolicy = {}, extraScrub: readonly string[] = []): NodeJS.ProcessEnv {
  const env = applyEnvironmentPolicy(process.env, policy, extraScrub);
  for (const name of Object.keys(env)) {
    if (isShellSteering(name)) delete env[name];
    else if (name.toUpperCase() === 'PATH' && env[name] !== undefined) env[name] = withoutRelativeEntries(env[name]!);
  }
  return { ...env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
}

/**
 * Starts `command` in `cwd` in a new process group; fd 3 of the child reports its final directory.
 * `sandbox` is the command line to run the shell under (bwrap, sandbox-exec), when it is sandboxed.
 */
export function spawnCommand(shell: string, command: string, cwd: string, env: NodeJS.ProcessEnv, sandbox?: readonly string[]): ChildProcess {
  const argv = [shell, '-c', SCRIPT, 'assistant-bash', cwd, command];
  // bwrap starts its child in / unless told; sandbox-exec keeps the working directory it was given.
  const chdir = sandbox?.length && basename(sandbox[0]!) === 'bwrap' ? ['--chdir', cwd] : [];
  const [file, ...args] = sandbox?.length ? [...sandbox, ...chdir, ...argv] : argv;
  return spawn(file!, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
}

/** Kills the command and everything it started. */
export function killTree(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
