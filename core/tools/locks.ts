import { sep } from 'node:path';
import type { LockSet } from '../types/tools.js';

/** The lock set of a call that may touch anything (any shell command nobody proved harmless). */
export const LOCK_EVERYTHING: LockSet = Object.freeze({ reads: [], writes: ['*'] }) as LockSet;

/** True when two resource keys name the same thing or one contains the other (`*` contains all). */
export function resourcesOverlap(a: string, b: string): boolean {
  if (a === '*' || b === '*' || a === b) return true;
  const under = (child: string, parent: string) => child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
  return under(a, b) || under(b, a);
}

function anyOverlap(xs: readonly string[], ys: readonly string[]): boolean {
  for (const x of xs) for (const y of ys) if (resourcesOverlap(x, y)) return true;
  return false;
}

/** Two calls conflict when one writes what the other reads or writes; reads never conflict with reads. */
export function locksConflict(a: LockSet, b: LockSet): boolean {
  return anyOverlap(a.writes, b.writes) || anyOverlap(a.writes, b.reads) || anyOverlap(b.writes, a.reads);
}

interface Waiter {
  locks: LockSet;
  start: () => void;
}

/**
 * The lock table every tool call of a kernel goes through, sub-agents included. A call starts when
 * its locks conflict with no running call and no call queued before it, so calls keep their order,
 * non-conflicting calls overlap, and a writer is never starved by a stream of readers.
 */
export class LockTable {
  private readonly queue: Waiter[] = [];
  private readonly running = new Set<{ locks: LockSet }>();

  /** Waits for `locks`; resolves with the release function. Rejects with the signal's reason when aborted first. */
  acquire(locks: LockSet, signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let released = false;
      const waiter: Waiter = {
        locks,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          // A token per holder: two calls may share one (frozen) lock set object.
          const token = { locks };
          this.running.add(token);
          resolve(() => {
            if (released) return;
            released = true;
            this.running.delete(token);
            this.pump();
          });
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index < 0) return;
        this.queue.splice(index, 1);
        reject(signal!.reason);
        this.pump();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** Calls holding locks right now (for diagnostics and tests). */
  get active(): number {
    return this.running.size;
  }

  private pump(): void {
    const blocked: LockSet[] = [];
    for (let i = 0; i < this.queue.length; ) {
      const waiter = this.queue[i]!;
      const free = !blocked.some((b) => locksConflict(b, waiter.locks)) && ![...this.running].some((r) => locksConflict(r.locks, waiter.locks));
      if (free) {
        this.queue.splice(i, 1);
        waiter.start();
      } else {
        blocked.push(waiter.locks);
        i++;
      }
    }
  }
}
