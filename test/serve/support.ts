import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { CLI } from '../support/cli.js';
import { pollUntil, PATIENT_MS } from '../support/wait.js';

/** A running `assistant serve` (the built CLI) and what it printed. */
export interface Served {
  origin: string;
  token: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERMs it and waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `assistant serve` in `cwd` and waits for the URL line it prints. */
export async function startServe(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await pollUntil(() => /open (http:\/\/[^/\s]+)\/#token=([A-Za-z0-9_-]+)/.exec(out) ?? (child.exitCode !== null ? 'exited' : undefined), PATIENT_MS, 20);
  if (!line || line === 'exited') {
    child.kill('SIGKILL');
    throw new Error(`assistant serve did not start\nstdout: ${out}\nstderr: ${err}`);
  }
  return {
    origin: line[1]!,
    token: line[2]!,
    child,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A decoded answer. */
export interface Answer {
  status: number;
  json: any;
  text: string;
  headers: { get(name: string): string | null };
}

/** A JSON request to the server with the bearer token (unless `token: null`), and its decoded answer. */
export async function call(served: Served, method: string, path: string, options: { body?: unknown; token?: string | null; headers?: Record<string, string> } = {}): Promise<Answer> {
  const token = options.token === undefined ? served.token : options.token;
  const response = await fetch(served.origin + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

/** One parsed Server-Sent Event. */
export interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

/**
 * Reads a session's event stream (with `lastEventId` as a reconnecting EventSource would send it)
 * until `until` holds for the events so far, or the deadline; then closes it.
 */
export async function readEvents(served: Served, sessionId: string, until: (events: SseEvent[]) => boolean, options: { lastEventId?: number; after?: number; timeoutMs?: number } = {}): Promise<SseEvent[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? PATIENT_MS);
  const events: SseEvent[] = [];
  try {
    const response = await fetch(`${served.origin}/api/sessions/${sessionId}/events${options.after !== undefined ? `?after=${options.after}` : ''}`, {
      headers: { authorization: `Bearer ${served.token}`, ...(options.lastEventId !== undefined ? { 'last-event-id': String(options.lastEventId) } : {}) },
      signal: controller.signal,
    });
    if (response.status !== 200) throw new Error(`events: HTTP ${response.status} ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { event: 'message', data: undefined };
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6));
        }
        if (event.data !== undefined) events.push(event);
      }
      if (until(events)) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

/** A GET with a Host header of our choosing (fetch always sends the real one), as a DNS-rebound page would. */
export function getWithHost(served: Served, path: string, host: string, token: string | null = served.token): Promise<number> {
  const url = new URL(served.origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
