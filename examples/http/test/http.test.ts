import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestKernel, resultText, type TestKernel } from '@assistant-cli/assistant/testing';
import http from '../src/index.js';

/** A local server standing in for the API the model talks to; it logs what reached it. */
let server: Server;
let origin: string;
const hits: Array<{ method?: string; url?: string; body: string }> = [];
beforeAll(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    hits.push({ method: req.method, url: req.url, body });
    if (req.url === '/status') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"build":"1234"}');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(50_000));
    if (req.url === '/logo.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300));
    if (req.url === '/moved') return void res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/status` }).end();
    if (req.url === '/echo') return void res.writeHead(201, { 'content-type': 'text/plain' }).end(`got ${body}`);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  hits.length = 0;
});

/** The plugin with every built-in (the real permission engine), allowing the local server. */
const kernelWith = (http_: Record<string, unknown> = {}, config: Record<string, unknown> = {}) =>
  createTestKernel({ plugins: [http], config: { http: { allowHosts: [new URL(origin).host], ...http_ }, ...config } });

describe('Http tool', () => {
  it('fetches from an allowed host without asking, headless, and shows status, type and body', async () => {
    t = await kernelWith();
    const result = await t.callTool('Http', { url: `${origin}/status` });
    expect(resultText(result)).toBe('HTTP 200 OK\ncontent-type: application/json\n\n{"ok":true,"build":"1234"}');
    expect(result.metadata).toMatchObject({ status: 200, bytes: 26, truncated: false });
    expect(t.hooks.last('permission')!.result).toMatchObject({ behavior: 'allow', layer: 'http' });
  });

  it('denies any other host before a request is made, whatever the mode or the project rules say', async () => {
    t = await kernelWith({}, { permissions: { mode: 'bypass', allow: ['Http'] } });
    const port = new URL(origin).port;
    for (const url of [`http://localhost:${port}/status`, `http://127.0.0.1:1/status`, 'https://example.com/']) {
      const result = await t.callTool('Http', { url });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('is not in http.allowHosts');
    }
    expect(hits).toEqual([]);
  });

  it('reports a redirect instead of following it to a host that is not allowed', async () => {
    t = await kernelWith();
    const result = await t.callTool('Http', { url: `${origin}/moved` });
    expect(resultText(result)).toContain(`HTTP 302 Found\nlocation: http://localhost:${new URL(origin).port}/status`);
    expect(hits.map((h) => h.url)).toEqual(['/moved']);
  });

  it('cuts long bodies, summarizes binary ones, and marks error statuses', async () => {
    t = await kernelWith({ maxBytes: 1000 });
    const big = await t.callTool('Http', { url: `${origin}/big` });
    expect(resultText(big)).toMatch(/^HTTP 200 OK\ncontent-type: text\/plain\n\nx{1000}\n\[\.\.\. cut at 1000 bytes \(http\.maxBytes\)\]$/);
    expect(big.metadata).toMatchObject({ truncated: true, bytes: 1000 });
    expect(resultText(await t.callTool('Http', { url: `${origin}/logo.png` }))).toContain('[300 bytes of image/png, not shown]');
    const missing = await t.callTool('Http', { url: `${origin}/nope` });
    expect(missing).toMatchObject({ isError: true, metadata: { status: 404 } });
  });

  it('leaves other methods to the normal policy (denied headless) unless allowMethods lists them, and refuses them in plan mode', async () => {
    t = await kernelWith();
    const post = { url: `${origin}/echo`, method: 'POST', body: 'hello' };
    expect(await t.permission('Http', post)).toMatchObject({ behavior: 'ask' });
    expect((await t.callTool('Http', post)).isError).toBe(true);
    expect(hits).toEqual([]);
    await t.close();
    t = await kernelWith({ allowMethods: ['GET', 'POST'] });
    expect(resultText(await t.callTool('Http', post))).toContain('got hello');
    expect(await t.permission('Http', post, { mode: 'plan' })).toMatchObject({ behavior: 'deny', reason: expect.stringContaining('plan mode is read-only') });
  });

  it('lets a project deny rule win over the allow-list', async () => {
    t = await kernelWith({}, { permissions: { deny: ['Http'] } });
    expect(await t.permission('Http', { url: `${origin}/status` })).toMatchObject({ behavior: 'deny', layer: 'rules' });
  });

  it('refuses bad options and bad URLs with clear messages', async () => {
    await expect(kernelWith({ allowHosts: ['https://example.com'] })).rejects.toMatchObject({
      code: 'ASSISTANT_PLUGIN_OPTIONS_INVALID',
      message: expect.stringContaining('/http/allowHosts/0'),
    });
    t = await kernelWith();
    const ftp = await t.callTool('Http', { url: 'ftp://127.0.0.1/file' });
    expect(resultText(ftp)).toContain('only http and https URLs can be fetched, not ftp:');
  });

  it('is what a scripted model calls in the agent loop', async () => {
    t = await createTestKernel({
      plugins: [[http, { allowHosts: [new URL(origin).host] }]],
      model: {
        turns: [
          { when: { userText: 'build' }, reply: { toolCalls: [{ id: 'get_status', name: 'Http', input: { url: `${origin}/status` } }] } },
          { when: { toolResultFor: 'get_status', toolResultContains: '"build":"1234"' }, reply: { text: 'Build 1234 is up.' } },
        ],
      },
    });
    expect((await t.prompt('Which build is deployed?')).text).toBe('Build 1234 is up.');
    expect(t.fake!.requests[0]!.body.tools.map((tool: { name: string }) => tool.name)).toContain('Http');
  });
});
