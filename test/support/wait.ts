/**
 * Waiting in tests without betting on the machine's speed: poll until a condition holds, with a
 * deadline far beyond what a fast machine needs (a fast one returns at once; a loaded 2-core CI
 * machine may take many times longer than a developer's laptop).
 */

/** How long a poll waits by default: long enough for a saturated machine, short of the test timeout. */
export const PATIENT_MS = 60_000;

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` every `everyMs` until it returns a truthy value, and returns it; after `timeoutMs`
 * returns the last (falsy) value instead of throwing, so the caller's own assertion reports it.
 */
export async function pollUntil<T>(check: () => T | Promise<T>, timeoutMs = PATIENT_MS, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value || Date.now() > deadline) return value;
    await sleep(everyMs);
  }
}
