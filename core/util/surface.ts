import { readlinkSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import type { SessionOwner, SurfaceKind } from '../types/session.js';

function ttyName(): string | undefined {
  // isatty, not process.stdin.isTTY: a headless run's stdin (a pipe, /dev/null) then never gets a stream made for it.
  if (!process.getBuiltinModule('node:tty').isatty(0)) return process.env.SSH_TTY;
  try {
    // Linux names the terminal behind fd 0; elsewhere there is no cheap way, and `tty` says enough.
    return readlinkSync('/proc/self/fd/0');
  } catch {
    return 'tty';
  }
}

function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'user';
  }
}

/**
 * The front end this process runs (terminal UI, headless run, ACP agent, web server...). It belongs
 * to the process, like its pid: every kernel and store in it claims sessions as this surface.
 */
let thisSurface: { kind: SurfaceKind; label?: string } | undefined;

/** Says which front end this process is, before it opens sessions (the lease records it). */
export function setSurface(kind: SurfaceKind, label?: string): void {
  thisSurface = { kind, ...(label ? { label } : {}) };
}

/** The process's user, host and terminal, worked out once: the user's name reads /etc/passwd, and a start asks twice (the lock, the lease). */
let who: { surface: string; host: string } | undefined;
function whoRuns(): { surface: string; host: string } {
  const host = hostname();
  const tty = ttyName();
  return { surface: `${userName()}@${host}${tty ? `:${tty}` : ` (pid ${process.pid})`}`, host };
}

/** Who is running this process, for "session in use on <surface>" messages: `user@host:tty` or `user@host (pid N)`, and which front end. */
export function currentOwner(now = Date.now()): SessionOwner {
  const { surface, host } = (who ??= whoRuns());
  return { surface, pid: process.pid, host, since: now, ...thisSurface };
}

/** Text from a lease (another process, maybe another machine, wrote it) made safe to print: no control characters, bounded. */
export const printable = (value: unknown) => String(value).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?').slice(0, 200);
