/**
 * Command output with a size cap: keeps the first and the last half of the allowance and counts
 * what was dropped in between, so a huge build log costs bounded memory and the model still sees
 * how it started and how it ended.
 */
export class HeadTailBuffer {
  private head = '';
  private tail: string[] = [];
  private tailLength = 0;
  private total = 0;

  constructor(private readonly limit: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    const half = Math.floor(this.limit / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
      if (!chunk) return;
    }
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    while (this.tail.length > 1 && this.tailLength - this.tail[0]!.length >= half) this.tailLength -= this.tail.shift()!.length;
  }

  /** Characters dropped from the middle. */
  get elided(): number {
    return Math.max(0, this.total - this.limit);
  }

  toString(): string {
    const tail = this.tail.join('');
    if (this.total <= this.limit) return this.head + tail;
    const keep = this.limit - this.head.length;
    return `${this.head}\n\n... [${this.elided} characters of output elided] ...\n\n${tail.slice(tail.length - keep)}`;
  }
}

/** Terminal colour and cursor codes, which only cost the model tokens. */
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

/** Output as the model should see it: no escape codes, no trailing blank lines. */
export function cleanOutput(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n/g, '\n').trimEnd();
}
