/** Messages the user typed while the agent worked; the loop injects them before its next model call. */
export interface SteeringQueue {
  /** Queues a message (blank ones are ignored). */
  push(text: string): void;
  /** Takes every queued message, oldest first. */
  drain(): string[];
  /** Messages waiting. */
  readonly size: number;
}

/** Creates an empty steering queue. */
export function createSteeringQueue(): SteeringQueue {
  let queue: string[] = [];
  return {
    push(text) {
      if (text.trim()) queue.push(text);
    },
    drain() {
      const out = queue;
      queue = [];
      return out;
    },
    get size() {
      return queue.length;
    },
  };
}
