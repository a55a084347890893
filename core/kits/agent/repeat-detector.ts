import type { ToolCallPart } from '../../types/messages.js';
import { stableJson } from '../../util/stable-json.js';

/** Notices the same tool call (same name and input) made `limit` times in a row. */
export class RepeatDetector {
  private lastKey = '';
  private count = 0;

  constructor(private readonly limit: number) {}

  /** Feeds one turn's calls in order; returns the repeated tool's name when the limit is reached. */
  observe(calls: ToolCallPart[]): string | undefined {
    let hit: string | undefined;
    for (const call of calls) {
      const key = `${call.name}\u0000${stableJson(call.input)}`;
      this.count = key === this.lastKey ? this.count + 1 : 1;
      this.lastKey = key;
      if (this.count >= this.limit) {
        hit = call.name;
        this.count = 0;
      }
    }
    return hit;
  }
}
