// Barriers: a turn can hold its requests until a set number of them wait together, which proves
// that the clients sent them concurrently (by observation, not by timing).

/**
 * @typedef {{ name: string, parties: number, timeoutMs?: number }} BarrierSpec
 * @typedef {'released' | 'timed out' | 'gone'} BarrierOutcome
 */

/** Default wait before a barrier gives up on the missing requests. */
export const BARRIER_TIMEOUT_MS = 10_000;

export class Barriers {
  constructor() {
    /** @type {Map<string, { released: boolean, waiting: Set<(outcome: BarrierOutcome) => void> }>} */
    this.byName = new Map();
  }

  /**
   * Waits at `spec.name` until `spec.parties` requests wait there at once; then all of them, and
   * every later one (a retry), pass. Resolves `timed out` when the others do not come within
   * `spec.timeoutMs`, `gone` when the client closes the request first.
   * @param {BarrierSpec} spec @param {import('node:http').ServerResponse} res @returns {Promise<BarrierOutcome>}
   */
  wait(spec, res) {
    let barrier = this.byName.get(spec.name);
    if (!barrier) this.byName.set(spec.name, (barrier = { released: false, waiting: new Set() }));
    if (barrier.released) return Promise.resolve('released');
    const state = barrier;
    return new Promise((resolve) => {
      /** @param {BarrierOutcome} outcome */
      const leave = (outcome) => {
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

  /** How many requests wait at `name` right now. @param {string} name */
  waiting(name) {
    return this.byName.get(name)?.waiting.size ?? 0;
  }
}
