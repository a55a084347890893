// Barriers: a turn can hold its requests until a set number of them wait together, which proves
// that the clients sent them concurrently (by observation, not by timing).
import type { ServerResponse } from 'node:http';

/** A turn's barrier: hold each request until `parties` wait at `name` at once. */
export interface BarrierSpec {
  /** Requests of any turn naming the same barrier wait together. */
  name: string;
  /** How many must wait at once before all pass. */
  parties: number;
  /** How long a request waits before the barrier gives up on the others (default 60 s: a loaded machine starts the others late). */
  timeoutMs?: number;
}

/** How a barrier treated a request: released with the others, timed out, or the client left. */
export type BarrierOutcome = 'released' | 'timed out' | 'gone';

/** Default wait before a barrier gives up on the missing requests. */
export const BARRIER_TIMEOUT_MS = 60_000;

const RELEASED: BarrierOutcome = 'released';

interface BarrierState {
  released: boolean;
  waiting: Set<(outcome: BarrierOutcome) => void>;
}

/** The barriers of one script. */
export class Barriers {
  private readonly byName = new Map<string, BarrierState>();

  /**
   * Waits at `spec.name` until `spec.parties` requests wait there at once; then all of them, and
   * every later one (a retry), pass.
   */
  wait(spec: BarrierSpec, res: ServerResponse): Promise<BarrierOutcome> {
    let barrier = this.byName.get(spec.name);
    if (!barrier) this.byName.set(spec.name, (barrier = { released: false, waiting: new Set() }));
    if (barrier.released) return Promise.resolve(RELEASED);
    const state = barrier;
    return new Promise((resolve) => {
      const leave = (outcome: BarrierOutcome) => {
        clearTimeout(timer);
        res.off('close', onClose);
        state.waiting.delete(leave);
        resolve(outcome);
      };
      const onClose = () => leave('gone');
      const timer = setTimeout(() => leave('timed out'), spec.timeoutMs ?? BARRIER_TIMEOUT_MS);
      res.on('close', onClose);
      state.waiting.add(leave);
      if (state.waiting.size >= spec.parties) {
        state.released = true;
        for (const waiter of [...state.waiting]) waiter('released');
      }
    });
  }

  /** How many requests wait at `name` right now. */
  waiting(name: string): number {
    return this.byName.get(name)?.waiting.size ?? 0;
  }
}
