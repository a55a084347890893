import type { ToolCallPart } from '../types/messages.js';

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` are the same call. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

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
