/**
 * When the tool pool may take on one more call at a time, and so start one more thread. Starting a
 * worker thread costs its bootstrap and its tool's module graph (about 60-90 ms of CPU and 10-15 MiB),
 * while a Read of a small file takes about a millisecond: a thread is added only once queued work
 * has waited this long behind calls that were all running in their workers.
 */
export const GROWTH_GRACE_MS = 25;

/** The pool's state as the policy sees it. */
export interface PoolLoad {
  /** Calls waiting in the pool's own queue. */
  queued: number;
  /** Calls handed to piscina and not finished. */
  dispatched: number;
  /** Of those, the ones not yet running in a worker (a thread booting, a module loading). */
  starting: number;
  /** When the most recent of the running ones began (main-thread clock), if any runs. */
  lastStartedAt: number | undefined;
}

/**
 * Two rules add a slot, both only while calls are queued and every slot holds a call running in
 * its worker (never while a thread boots or a module loads):
 * - every running call has run for the grace: a long Bash or Grep holds queued work back by at
 *   most the grace plus a thread start;
 * - the calls that finished while work was queued ran, by their workers' own clocks, for the
 *   grace per slot in all: eight 8 ms Reads add a thread, sixteen quick ones do not. Workers'
 *   clocks, so a main thread slow to take results (a loaded machine) does not count as work.
 * The sum starts again from zero when the queue empties or a slot is added.
 */
export class GrowthPolicy {
  /** How many calls the pool hands piscina at once. */
  slots = 1;
  /** Run time of the calls that finished while work was queued, since the queue was last empty or a slot was added. */
  private busyMs = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer is due. */
  private dueAt: number | undefined;

  constructor(
    private readonly maxSlots: number,
    private readonly load: () => PoolLoad,
    private readonly onGrow: () => void,
    private readonly graceMs = GROWTH_GRACE_MS,
  ) {}

  /** Re-evaluates after any change: a call queued, handed over, started or finished. */
  observe(): void {
    const load = this.load();
    if (load.queued === 0) this.busyMs = 0;
    if (!this.saturated(load) || load.lastStartedAt === undefined) return this.disarm();
    const dueAt = load.lastStartedAt + this.graceMs;
    if (dueAt === this.dueAt) return;
    this.disarm();
    this.dueAt = dueAt;
    this.timer = setTimeout(() => {
      this.timer = this.dueAt = undefined;
      // Results that arrived while this thread was not running are taken first (poll phase):
      // a call that finished meanwhile must not count as still running.
      setImmediate(() => this.growIfLongRunning());
    }, Math.max(0, dueAt - performance.now()));
    // Running calls keep the process alive; this timer alone must not.
    this.timer.unref();
  }

  /** A call finished after `runMs` in its worker; call before the pool forgets it. */
  finished(runMs: number): void {
    const load = this.load();
    if (load.queued === 0) {
      this.busyMs = 0;
      return;
    }
    if (!this.saturated(load)) return;
    this.busyMs += Math.max(0, runMs);
    if (this.busyMs >= this.graceMs * this.slots) this.grow();
  }

  /** A thread exited (idle, crashed or terminated): its slot goes with it, so a later burst grows again by the rule. */
  threadGone(): void {
    this.slots = Math.max(1, this.slots - 1);
  }

  /** Back to one slot and no timer (the pool was destroyed). */
  close(): void {
    this.disarm();
    this.busyMs = 0;
    this.slots = 1;
  }

  private saturated(load: PoolLoad): boolean {
    return load.queued > 0 && this.slots < this.maxSlots && load.dispatched >= this.slots && load.starting === 0;
  }

  private growIfLongRunning(): void {
    const load = this.load();
    if (this.saturated(load) && load.lastStartedAt !== undefined && performance.now() - load.lastStartedAt >= this.graceMs) this.grow();
    else this.observe();
  }

  private grow(): void {
    this.disarm();
    this.busyMs = 0;
    this.slots = Math.min(this.maxSlots, this.slots + 1);
    this.onGrow();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = this.dueAt = undefined;
  }
}
