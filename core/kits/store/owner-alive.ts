import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { SessionOwner } from '../../types/session.js';
import { processAlive } from '../fs/index.js';

/**
 * The kernel's start time of process `pid` (Linux, from /proc), or undefined elsewhere. Stored with a
 * lease so a pid reused by an unrelated process is not mistaken for the holder.
 */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * False only when the holder of a lease is certainly gone: it ran on this host and its process no
 * longer exists (or its pid now belongs to a process started later). A holder on another host is
 * always taken as alive: this process cannot see it, so only an expiry or `--take-over` frees it.
 */
export function ownerAlive(owner: Pick<SessionOwner, 'pid' | 'host'> & { startTicks?: string }, host = hostname()): boolean {
  if (owner.host !== host) return true;
  // A record without a usable pid cannot be proven dead: it keeps the lease (--take-over frees it).
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return true;
  if (!processAlive(owner.pid)) return false;
  const ticks = processStartTicks(owner.pid);
  return !(owner.startTicks && ticks && ticks !== owner.startTicks);
}
