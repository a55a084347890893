/** One event of a served session: `message` events are stream-json lines, the other names are the server's own. */
export interface LoggedEvent {
  /** Position in the session's stream, from 1; the SSE `id`, so a reconnect resumes after it. */
  id: number;
  /** The SSE event name. */
  name: 'message' | 'prompt' | 'approval_request' | 'approval_resolved' | 'todos' | 'context' | 'state' | 'lease_lost';
  /** The JSON payload. */
  data: object;
}

/**
 * The events of one served session, numbered, kept in memory (the most recent `capacity`) so a
 * client that reconnects with Last-Event-ID gets exactly the events it missed, none twice.
 */
export class EventLog {
  private readonly events: LoggedEvent[] = [];
  private readonly listeners = new Set<(event: LoggedEvent) => void>();
  private next = 1;

  constructor(private readonly capacity = 20_000) {}

  /** The id of the newest event (0 before the first). */
  get lastId(): number {
    return this.next - 1;
  }

  append(name: LoggedEvent['name'], data: object): void {
    const event = { id: this.next++, name, data };
    this.events.push(event);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    for (const listener of this.listeners) listener(event);
  }

  /** True while every event after `after` is still in memory (a client resuming there misses nothing). */
  holds(after: number): boolean {
    const oldest = this.events[0]?.id ?? this.next;
    return after + 1 >= oldest && after <= this.lastId;
  }

  /**
   * Sends every event after `after`, then each new one as it comes. Replay and subscription happen
   * in one synchronous step, so nothing falls between them. Check `holds(after)` first.
   */
  follow(after: number, listener: (event: LoggedEvent) => void): () => void {
    for (const event of this.events) if (event.id > after) listener(event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
