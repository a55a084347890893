import type { Kernel } from '../../core/index.js';
import { watchLease, type LeaseLoss } from '../../core/kits/agent/index.js';

/**
 * The terminal's side of a hand-off: once another surface takes the session (`--take-over` in
 * another terminal, a headless run, an editor, the web UI), the UI stops taking input and leaves,
 * then says where the session went and how to get it back here.
 */
export function watchHandOff(kernel: Kernel, leave: (code: number) => void): { stop(): void; notice(): string | undefined } {
  let loss: LeaseLoss | undefined;
  const watch = watchLease(kernel, (found) => {
    loss = found;
    leave(1);
  });
  return {
    stop: watch.stop,
    notice: () =>
      loss &&
      `ASSISTANT_SESSION_TAKEN_OVER: session ${loss.sessionId.slice(0, 8)} continued in ${loss.where}; this terminal stopped taking input.\n` +
        `Resume it here with: assistant --resume ${loss.sessionId} (add --take-over while it is still open there)\n`,
  };
}
