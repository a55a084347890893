/**
 * Runs one hook command: the user's shell in its own process group, the event on stdin, stdout and
 * stderr captured (capped), and on timeout or abort the whole group is killed, so nothing the
 * command started outlives it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';

/** What a command did. */
export interface CommandRun {
  /** Exit status; null when it was killed or never started. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** It ran past its time limit and was killed. */
  timedOut: boolean;
  /** The run it belongs to was stopped (Ctrl+C), so it was killed. */
  aborted: boolean;
  /** Why it could not be started at all. */
  spawnError?: string;
}

/** How to run it. */
export interface RunCommandOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Bytes kept of each of stdout and stderr. */
const MAX_CAPTURE = 256 * 1024;
/** After SIGTERM, how long the group gets before SIGKILL. */
const KILL_GRACE_MS = 1000;
/** After the command exits, how long to wait for a background child to let go of its output. */
const DRAIN_MS = 500;
const POSIX_SHELLS = new Set(['bash', 'zsh', 'sh', 'dash', 'ksh', 'ash', 'mksh']);

/** The user's shell when it understands `-c` the POSIX way, else /bin/sh. */
export function userShell(): string {
  const shell = process.env.SHELL;
  return shell && POSIX_SHELLS.has(basename(shell)) && existsSync(shell) ? shell : '/bin/sh';
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore' });
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Runs `command` and resolves when it has finished or been killed; never rejects. */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child =
      process.platform === 'win32'
        ? spawn(command, { cwd: options.cwd, env: options.env, shell: true, windowsHide: true, stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn(userShell(), ['-c', command], { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '' };
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const finish = (spawnError?: string) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ code: exit?.code ?? null, signal: exit?.signal ?? null, ...out, timedOut, aborted, ...(spawnError ? { spawnError } : {}) });
    };
    const stop = () => {
      if (!child.pid || exit) return;
      killGroup(child.pid, 'SIGTERM');
      timers.push(setTimeout(() => child.pid && killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS));
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };

    const capture = (key: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (out[key].length < MAX_CAPTURE) out[key] += chunk.toString('utf8').slice(0, MAX_CAPTURE - out[key].length);
    };
    child.stdout!.on('data', capture('stdout'));
    child.stderr!.on('data', capture('stderr'));
    // A command that does not read its stdin closes it early: that is not a failure.
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(options.input);

    child.on('error', (error) => finish(error.message));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The group may hold on to the pipes after the shell is gone: once the time limit has
      // passed everything in it is killed; a normal exit waits briefly for them to drain.
      if (timedOut || aborted) {
        if (child.pid) killGroup(child.pid, 'SIGKILL');
      }
      timers.push(setTimeout(() => finish(), DRAIN_MS));
    });
    child.on('close', () => finish());

    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, options.timeoutMs),
    );
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
