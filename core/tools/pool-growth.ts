/**
 * When the tool pool may take on one more task at a time, and so start one more thread. Starting a
 * worker thread costs its bootstrap and its tool's module graph (about 60-90 ms of CPU and 10-15 MiB),
 * while a Read of a small file takes about a millisecond: a thread is added only once queued work
 * has waited this long behind tasks that were all running in their workers.
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
}

/**
 * Counts the time during which work was queued while every slot held a task running in a worker:
 * the time is summed over the stretches (a hand-over between two quick tasks pauses it, it does
 * not restart it), so eight 8 ms Reads add a thread while sixteen 1 ms ones do not. Time spent
 * starting a thread or loading a module never counts. The sum starts again from zero whenever
 * the queue empties or a slot is added.
 */
export class GrowthPolicy {
  /** How many calls the pool hands piscina at once. */
  slots = 1;
  /** Time summed over earlier stretches since the queue was last empty or a slot was added. */
  private waitedMs = 0;
  /** When the current stretch began (undefined: not in one). */
  private since: number | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly maxSlots: number,
    private readonly onGrow: () => void,
    private readonly graceMs = GROWTH_GRACE_MS,
  ) {}

  /** Re-evaluates after any change: a call queued, handed over, started or finished. */
  observe(load: PoolLoad): void {
    if (load.queued === 0) return this.reset();
    const saturated = this.slots < this.maxSlots && load.dispatched >= this.slots && load.starting === 0;
    if (saturated && this.since === undefined) {
      this.since = performance.now();
      this.timer = setTimeout(() => this.grow(), Math.max(0, this.graceMs - this.waitedMs));
      // Running tasks keep the process alive; this timer alone must not.
      this.timer.unref();
    } else if (!saturated && this.since !== undefined) {
      this.waitedMs += performance.now() - this.since;
      this.stopTimer();
    }
  }

  /** A thread exited (idle, crashed or terminated): its slot goes with it, so a later burst grows again by the rule. */
  threadGone(): void {
    this.slots = Math.max(1, this.slots - 1);
  }

  /** Back to one slot and no timer (the pool was destroyed). */
  close(): void {
    this.reset();
    this.slots = 1;
  }

  private grow(): void {
    this.since = this.timer = undefined;
    this.waitedMs = 0;
    this.slots = Math.min(this.maxSlots, this.slots + 1);
    this.onGrow();
  }

  private reset(): void {
    this.stopTimer();
    this.waitedMs = 0;
  }

  private stopTimer(): void {
    clearTimeout(this.timer);
    this.since = this.timer = undefined;
  }
}
