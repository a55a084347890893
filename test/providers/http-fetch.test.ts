// The kit's fetch on node:http (core/kits/provider/http) against real servers on 127.0.0.1: streaming,
// aborts, redirects and their credential rules, compressed bodies, network errors, bodies it sends.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, createGzip, deflateSync, gzipSync, type Gzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifySdkError, nodeFetch } from '../../core/kits/provider/index.js';
import { ProviderError } from '../../core/index.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A server whose routes the test sets; records every request it got. */
async function serve(routes: Record<string, Handler>): Promise<{ url: string; server: Server; seen: { url: string; method: string; headers: IncomingMessage['headers']; body: string }[] }> {
  const seen: { url: string; method: string; headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => {
      seen.push({ url: req.url!, method: req.method!, headers: req.headers, body });
      const route = routes[req.url!.split('?')[0]!];
      if (route) route(req, res, body);
      else res.writeHead(404).end('no route');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen };
}

/** Resolves once `check` holds, polling; fails after the deadline. */
async function until(check: () => boolean, what: string, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let a: Awaited<ReturnType<typeof serve>>;
let b: Awaited<ReturnType<typeof serve>>;
/** The SSE route's response, held open so the test decides when each event goes out. */
let sse: ServerResponse | undefined;
/** The gzip SSE route's compressor, held open likewise. */
let gzipSse: Gzip | undefined;

beforeAll(async () => {
  b = await serve({ '/landing': (req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('landed on b') });
  a = await serve({
    '/json': (req, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-multi': ['one', 'two'] }).end('{"ok":true}'),
    '/echo': (req, res, body) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] ?? null })),
    '/sse': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: one\ndata: {"n":1}\n\n');
      sse = res;
    },
    '/gzip-sse': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      gzip.write('data: first\n\n');
      gzip.flush();
      gzipSse = gzip;
    },
    '/port': (req, res) => res.writeHead(200).end(String(req.socket.remotePort)),
    '/hang': () => {},
    '/cut': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('only part');
      setTimeout(() => res.socket?.destroy(), 50);
    },
    '/gzip': (req, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped body')),
    '/br': (req, res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli body')),
    '/deflate': (req, res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('deflated body')),
    '/limited': (req, res) => res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":{"type":"rate_limit_error"}}'),
    '/same': (req, res) => res.writeHead(302, { location: '/echo-headers' }).end(),
    '/echo-headers': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)),
    '/away': (req, res) => res.writeHead(307, { location: `${b.url}/landing` }).end(),
    '/see-other': (req, res) => res.writeHead(303, { location: '/echo' }).end(),
    '/keep-post': (req, res) => res.writeHead(307, { location: '/echo' }).end(),
    '/loop': (req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/to-file': (req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  });
});
afterAll(async () => {
  sse?.end();
  a.server.closeAllConnections();
  b.server.closeAllConnections();
  await Promise.all([a, b].map(({ server }) => new Promise((r) => server.close(r))));
});

describe('nodeFetch', () => {
  it('answers like fetch: status, headers joined and case-insensitive, url, json', async () => {
    const response = await nodeFetch(`${a.url}/json#frag`);
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${a.url}/json`);
    expect(response.redirected).toBe(false);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('x-multi')).toBe('one, two');
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('streams SSE events as they arrive, before the response ends', async () => {
    const response = await nodeFetch(`${a.url}/sse`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('event: one\ndata: {"n":1}\n\n');
    await until(() => sse !== undefined, 'the SSE route');
    sse!.write('event: two\ndata: {"n":2}\n\n');
    const second = await reader.read();
    expect(new TextDecoder().decode(second.value)).toBe('event: two\ndata: {"n":2}\n\n');
    sse!.end();
    expect((await reader.read()).done).toBe(true);
    sse = undefined;
  });

  it('decompresses a gzip stream as it arrives, event by event', async () => {
    const response = await nodeFetch(`${a.url}/gzip-sse`);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    gzipSse!.end('data: second\n\n');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: second\n\n');
  });

  // The provider SDKs read the body with `for await`, which reads the socket directly (no web stream reader).
  it('streams SSE events to for-await as they arrive, then ends', async () => {
    const response = await nodeFetch(`${a.url}/sse`);
    const events = response.body![Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await events.next()).value)).toBe('event: one\ndata: {"n":1}\n\n');
    await until(() => sse !== undefined, 'the SSE route');
    sse!.write('event: two\ndata: {"n":2}\n\n');
    expect(new TextDecoder().decode((await events.next()).value)).toBe('event: two\ndata: {"n":2}\n\n');
    sse!.end();
    expect((await events.next()).done).toBe(true);
    sse = undefined;
    // Read this way, it is locked to the web stream API, as a read web stream is.
    expect(response.body!.locked).toBe(true);
    expect(() => response.body!.getReader()).toThrow(TypeError);
  });

  it('fails for-await with the AbortError when aborted mid-body, and with TypeError("terminated") when cut off', async () => {
    const streaming = new AbortController();
    const response = await nodeFetch(`${a.url}/sse`, { signal: streaming.signal });
    const events = response.body![Symbol.asyncIterator]();
    await events.next();
    streaming.abort();
    await expect(events.next()).rejects.toMatchObject({ name: 'AbortError' });
    sse = undefined;

    const cut = await nodeFetch(`${a.url}/cut`);
    const chunks: string[] = [];
    const error = await (async () => {
      for await (const chunk of cut.body!) chunks.push(new TextDecoder().decode(chunk));
    })().catch((e: unknown) => e);
    expect(chunks.join('')).toBe('only part');
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
  });

  it('closes the connection when for-await stops early, and decompresses on that path too', async () => {
    const response = await nodeFetch(`${a.url}/sse`);
    await until(() => sse !== undefined, 'the SSE route');
    const server = sse!;
    const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
    for await (const chunk of response.body!) {
      expect(new TextDecoder().decode(chunk)).toContain('event: one');
      break;
    }
    await closed;
    sse = undefined;

    const zipped = await nodeFetch(`${a.url}/gzip-sse`);
    const events = zipped.body![Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await events.next()).value)).toBe('data: first\n\n');
    gzipSse!.end('data: second\n\n');
    let rest = '';
    for (let chunk = await events.next(); !chunk.done; chunk = await events.next()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('reuses the connection for the next request (keep-alive)', async () => {
    const first = await (await nodeFetch(`${a.url}/port`)).text();
    const second = await (await nodeFetch(`${a.url}/port`)).text();
    expect(second).toBe(first);
  });

  it('rejects with the AbortError DOMException before, during and after the headers', async () => {
    const before = new AbortController();
    before.abort();
    await expect(nodeFetch(`${a.url}/json`, { signal: before.signal })).rejects.toMatchObject({ name: 'AbortError' });

    const waiting = new AbortController();
    const pending = nodeFetch(`${a.url}/hang`, { signal: waiting.signal });
    await until(() => a.seen.some((r) => r.url === '/hang'), 'the /hang request');
    waiting.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');

    const streaming = new AbortController();
    const response = await nodeFetch(`${a.url}/sse`, { signal: streaming.signal });
    const reader = response.body!.getReader();
    await reader.read();
    streaming.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
    sse = undefined;
  });

  it('fails a refused connection with TypeError("fetch failed") and the socket error as cause', async () => {
    const closed = await serve({});
    await new Promise((r) => closed.server.close(r));
    const error = (await nodeFetch(`${closed.url}/x`).catch((e: unknown) => e)) as TypeError & { cause: NodeJS.ErrnoException };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause.code).toBe('ECONNREFUSED');
  });

  it('errors a body cut off mid-way with TypeError("terminated")', async () => {
    const response = await nodeFetch(`${a.url}/cut`);
    const error = await response.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('terminated');
  });

  it.each([
    ['gzip', 'zipped body'],
    ['br', 'brotli body'],
    ['deflate', 'deflated body'],
  ])('decompresses a %s body and asks for compression', async (route, text) => {
    const response = await nodeFetch(`${a.url}/${route}`);
    expect(await response.text()).toBe(text);
    expect(a.seen.at(-1)!.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('passes a 429 through with its retry-after header and error body', async () => {
    const response = await nodeFetch(`${a.url}/limited`);
    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual({ error: { type: 'rate_limit_error' } });
  });

  it('keeps credentials on a same-origin redirect', async () => {
    const response = await nodeFetch(`${a.url}/same`, { headers: { authorization: 'Bearer secret', 'x-api-key': 'key' } });
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`${a.url}/echo-headers`);
    expect(await response.json()).toMatchObject({ authorization: 'Bearer secret', 'x-api-key': 'key' });
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const response = await nodeFetch(`${a.url}/away`, {
      method: 'POST',
      body: '{}',
      headers: { authorization: 'Bearer secret', 'x-api-key': 'key', 'api-key': 'azure', cookie: 'c=1', 'x-other': 'kept' },
    });
    expect(await response.text()).toBe('landed on b');
    const landed = b.seen.at(-1)!;
    expect(landed.method).toBe('POST');
    expect(landed.body).toBe('{}');
    expect(landed.headers['x-other']).toBe('kept');
    for (const name of ['authorization', 'x-api-key', 'api-key', 'cookie']) expect(landed.headers[name]).toBeUndefined();
  });

  it('turns a POST into a GET on 303 and keeps it with its body on 307', async () => {
    const seeOther = await nodeFetch(`${a.url}/see-other`, { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } });
    expect(await seeOther.json()).toEqual({ method: 'GET', body: '', type: null });
    const kept = await nodeFetch(`${a.url}/keep-post`, { method: 'POST', body: 'payload' });
    expect(await kept.json()).toEqual({ method: 'POST', body: 'payload', type: 'text/plain;charset=UTF-8' });
  });

  it('gives up after 20 redirects, and on a redirect to another scheme', async () => {
    const before = a.seen.filter((r) => r.url === '/loop').length;
    await expect(nodeFetch(`${a.url}/loop`)).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { message: 'redirect count exceeded' } });
    expect(a.seen.filter((r) => r.url === '/loop').length - before).toBe(21);
    await expect(nodeFetch(`${a.url}/to-file`)).rejects.toMatchObject({ message: 'fetch failed', cause: { message: 'redirect to a file: URL' } });
  });

  it('returns the redirect itself with redirect: "manual"', async () => {
    const response = await nodeFetch(`${a.url}/same`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/echo-headers');
  });

  it('sends string, bytes, URLSearchParams and streamed bodies with fetch\'s content types', async () => {
    const send = async (body: unknown) => (await nodeFetch(`${a.url}/echo`, { method: 'POST', body })).json();
    expect(await send('text')).toEqual({ method: 'POST', body: 'text', type: 'text/plain;charset=UTF-8' });
    expect(await send(new TextEncoder().encode('bytes'))).toEqual({ method: 'POST', body: 'bytes', type: null });
    expect(await send(new URLSearchParams({ a: '1', b: 'x y' }))).toEqual({ method: 'POST', body: 'a=1&b=x+y', type: 'application/x-www-form-urlencoded;charset=UTF-8' });
    expect(await send(new Blob(['blob'], { type: 'text/x-blob' }))).toEqual({ method: 'POST', body: 'blob', type: 'text/x-blob' });
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode('str')), c.enqueue(new TextEncoder().encode('eamed')), c.close()) });
    expect(await send(stream)).toEqual({ method: 'POST', body: 'streamed', type: null });
  });

  it('sends FormData as multipart with its boundary (file uploads)', async () => {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob(['line one\n'], { type: 'application/jsonl' }), 'input.jsonl');
    const echoed = (await (await nodeFetch(`${a.url}/echo`, { method: 'POST', body: form })).json()) as { body: string; type: string };
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(echoed.type)?.[1];
    expect(boundary).toBeTruthy();
    expect(echoed.body).toContain(`--${boundary}`);
    expect(echoed.body).toContain('name="purpose"\r\n\r\nbatch');
    expect(echoed.body).toContain('filename="input.jsonl"\r\nContent-Type: application/jsonl\r\n\r\nline one\n');
  });

  it('refuses a body fetch would send as "[object Object]" with a coded error', async () => {
    const error = await nodeFetch(`${a.url}/echo`, { method: 'POST', body: { model: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).code).toBe('ASSISTANT_PROVIDER_REQUEST_BODY');
    // The SDKs wrap what their fetch threw in an APIConnectionError: the code survives classification, not retried.
    const wrapped = Object.assign(new Error('Connection error.', { cause: error }), { name: 'APIConnectionError' });
    const classified = classifySdkError(wrapped, { provider: 'anthropic', model: 'm', baseURL: a.url, keyEnv: 'K' }, 1000);
    expect(classified.code).toBe('ASSISTANT_PROVIDER_REQUEST_BODY');
    expect(classified.retryable).toBe(false);
  });

  it('refuses header injection in names and values', async () => {
    await expect(nodeFetch(`${a.url}/json`, { headers: { 'x-a': 'ok\r\nx-injected: 1' } })).rejects.toThrow(TypeError);
    await expect(nodeFetch(`${a.url}/json`, { headers: { 'bad name': 'x' } })).rejects.toThrow(TypeError);
    await expect(nodeFetch(`${a.url}/json`, { headers: { 'x-a': 'not a byte string: €' } })).rejects.toThrow(TypeError);
  });
});
