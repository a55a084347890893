import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventLog, LoggedEvent } from './event-log.js';

/** Where a stream starts: after the Last-Event-ID a reconnecting EventSource sends, or `?after=` on first connect. */
export function resumePoint(req: IncomingMessage, url: URL): number {
  const raw = req.headers['last-event-id'] ?? url.searchParams.get('after') ?? '0';
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

const frame = (event: LoggedEvent) => `id: ${event.id}\nevent: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;

/**
 * Streams a session's events as Server-Sent Events from `after` on. A client too far behind (its
 * events already dropped from memory) gets one `reset` event and must reload the session.
 */
export function streamEvents(req: IncomingMessage, res: ServerResponse, log: EventLog, after: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
  res.write('retry: 1000\n\n');
  if (!log.holds(after)) {
    res.end(`event: reset\ndata: ${JSON.stringify({ after, last_id: log.lastId })}\n\n`);
    return;
  }
  const unfollow = log.follow(after, (event) => res.write(frame(event)));
  // A comment now and then keeps proxies and idle timers from closing a quiet stream.
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  const stop = () => {
    clearInterval(ping);
    unfollow();
  };
  req.on('close', stop);
  res.on('error', stop);
}
