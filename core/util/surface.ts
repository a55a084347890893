import { readlinkSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import type { SessionOwner } from '../types/session.js';

function ttyName(): string | undefined {
  if (!process.stdin.isTTY) return process.env.SSH_TTY;
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

/** Who is running this process, for "session in use on <surface>" messages: `user@host:tty` or `user@host (pid N)`. */
export function currentOwner(now = Date.now()): SessionOwner {
  const host = hostname();
  const tty = ttyName();
  return {
    surface: `${userName()}@${host}${tty ? `:${tty}` : ` (pid ${process.pid})`}`,
    pid: process.pid,
    host,
    since: now,
  };
}
