// WebFetch against real HTTP servers on 127.0.0.1, through the kernel's tool pipeline and worker
// pool: pages become markdown without their furniture, redirects stay on their host, sizes are
// capped, binary answers refused, and slow answers stop at an abort or the time limit.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel, ToolResultPart } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { pollUntil } from '../support/wait.js';
import { call, kernelFor, runCalls, runOne, text } from '../tools/helpers.js';
import { startSite, type Site } from './server.js';

const ARTICLE = `<!doctype html><html><head><title>Release notes</title></head><body>
<header><nav><a href="/">Home</a> <a href="/shop">SHOP MENU</a></nav></header>
<aside class="ad">BUY CHEAP WATCHES NOW</aside>
<main><article><h1>Version 2 is out</h1>
<p>${'The new version brings faster builds and a smaller install. '.repeat(8)}</p>
<h2>Upgrading</h2><p>Run the <code>upgrade</code> command, then read <a href="/docs/upgrade">the upgrade guide</a>.</p>
<ul><li>First step</li><li>Second step</li></ul>
<pre><code>npm install thing@2</code></pre></article></main>
<footer>Copyright FOOTER TEXT</footer><script>var tracking = "SCRIPT TEXT";</script></body></html>`;

const LONG_SECTIONS = ['# Guide', ...Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${'Filler words about nothing in particular. '.repeat(12)}`), '## Pricing\n\nThe pricing is 10 euros a month.', ...Array.from({ length: 10 }, (_, i) => `## Tail ${i}\n\n${'More filler. '.repeat(30)}`)].join('\n\n');

let site: Site;
const kernels: Kernel[] = [];

beforeAll(async () => {
  site = await startSite({
    '/article': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/json': (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"thing","version":2}'),
    '/latin1': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from('caf\xe9 cr\xe8me', 'latin1')),
    '/hop': (_req, res) => res.writeHead(301, { location: '/hop2' }).end(),
    '/hop2': (_req, res) => res.writeHead(302, { location: '/article' }).end(),
    '/off-host': (_req, res, s) => res.writeHead(302, { location: `${s.other}/article` }).end(),
    '/off-port': (_req, res) => res.writeHead(307, { location: 'http://127.0.0.1:1/article' }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/missing-page': (_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>Gone</h1><p>This page moved away.</p></body></html>'),
    '/huge': (_req, res) => {
      // 50 MB of text, written as fast as the client reads it.
      res.writeHead(200, { 'content-type': 'text/plain' });
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Infinity));
      pump();
    },
    '/bomb': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync(Buffer.alloc(64 * 1024 * 1024, 'z'))),
    '/image': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(8 * 1024 * 1024) });
      res.write(Buffer.alloc(64 * 1024, 1));
      // The rest never comes: a client that reads on would wait forever.
    },
    '/slow': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part of a body that never ends\n');
    },
    '/long': (_req, res) => res.writeHead(200, { 'content-type': 'text/markdown' }).end(LONG_SECTIONS),
  });
});

afterAll(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
  await site?.close();
});

/** A kernel whose rules let WebFetch reach this test's server (by either of its names): the private-address check stays on. */
async function kernelWith(webFetch: Record<string, unknown> = {}, allow = ['WebFetch(domain:127.0.0.1)', 'WebFetch(domain:localhost)']): Promise<Kernel> {
  const { kernel } = await kernelFor(makeProject({}), undefined, { config: { permissions: { allow }, webFetch } as never });
  kernels.push(kernel);
  return kernel;
}

const fetchUrl = async (kernel: Kernel, url: string, prompt?: string): Promise<ToolResultPart> => runOne(kernel, 'WebFetch', prompt ? { url, prompt } : { url });
const codeOf = (result: ToolResultPart) => (result.metadata as { code?: string } | undefined)?.code;

describe('WebFetch', () => {
  it('turns an HTML page into markdown of its main content, without navigation, ads, footer or scripts', async () => {
    const result = await fetchUrl(await kernelWith(), `${site.base}/article`);
    const out = text(result);
    expect(result.isError).toBeFalsy();
    expect(out).toContain(`URL: ${site.base}/article`);
    expect(out).toMatch(/Status: 200 OK · text\/html/);
    expect(out).toContain('Title: Release notes');
    expect(out).toMatch(/^## Upgrading$/m);
    expect(out).toContain(`[the upgrade guide](${site.base}/docs/upgrade)`);
    expect(out).toMatch(/^- First step$/m);
    expect(out).toContain('```\nnpm install thing@2\n```');
    for (const noise of ['SHOP MENU', 'BUY CHEAP WATCHES', 'FOOTER TEXT', 'SCRIPT TEXT']) expect(out).not.toContain(noise);
  });

  it('passes JSON and text through, decoded in their charset', async () => {
    const kernel = await kernelWith();
    expect(text(await fetchUrl(kernel, `${site.base}/json`))).toMatch(/application\/json[\s\S]*\n\{"name":"thing","version":2\}$/);
    expect(text(await fetchUrl(kernel, `${site.base}/latin1`))).toMatch(/café crème$/);
  });

  it('follows redirects within the host and lists them; reports one to another host, port or scheme without following it', async () => {
    const kernel = await kernelWith();
    const followed = text(await fetchUrl(kernel, `${site.base}/hop`));
    expect(followed).toContain(`Redirected (301): ${site.base}/hop → ${site.base}/hop2`);
    expect(followed).toContain(`Redirected (302): ${site.base}/hop2 → ${site.base}/article`);
    expect(followed).toContain('## Upgrading');

    const before = site.hits.get('/article') ?? 0;
    const offHost = await fetchUrl(kernel, `${site.base}/off-host`);
    expect(offHost.isError).toBeFalsy();
    expect(text(offHost)).toContain(`redirected (302) ${site.base}/off-host to ${site.other}/article, which is on another host`);
    expect(text(offHost)).toContain('call WebFetch again with that URL');
    expect(text(await fetchUrl(kernel, `${site.base}/off-port`))).toContain('to http://127.0.0.1:1/article, which is on another host (or port');
    expect(site.hits.get('/article') ?? 0).toBe(before);

    const loop = await fetchUrl(kernel, `${site.base}/loop`);
    expect(codeOf(loop)).toBe('ASSISTANT_WEBFETCH_TOO_MANY_REDIRECTS');
    expect(site.hits.get('/loop')).toBe(6);
  });

  it('caps the bytes it downloads (after decompression) and the characters it returns', async () => {
    const kernel = await kernelWith({ maxBytes: 256 * 1024, maxChars: 5000 });
    const huge = await fetchUrl(kernel, `${site.base}/huge`);
    expect(huge.isError).toBeFalsy();
    expect(text(huge)).toContain('256.0 kB (cut at the 256.0 kB download limit)');
    expect(text(huge)).toMatch(/\[257144 more characters not shown\]$/);
    expect((huge.metadata as { bytes: number }).bytes).toBe(256 * 1024);
    // The client hung up instead of reading 50 MB.
    expect(await pollUntil(() => site.closedEarly.has('/huge'))).toBe(true);
    const bomb = await fetchUrl(kernel, `${site.base}/bomb`);
    expect(text(bomb)).toContain('(cut at the 256.0 kB download limit)');
  });

  it('refuses a binary answer from its headers, without downloading it', async () => {
    const result = await fetchUrl(await kernelWith(), `${site.base}/image`);
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toBe('ASSISTANT_WEBFETCH_BINARY');
    expect(text(result)).toContain('is image/png (8.0 MB), not text');
    expect(await pollUntil(() => site.closedEarly.has('/image'))).toBe(true);
  });

  it('reports an HTTP error status with the start of the page', async () => {
    const result = await fetchUrl(await kernelWith(), `${site.base}/missing-page`);
    expect(codeOf(result)).toBe('ASSISTANT_WEBFETCH_HTTP_STATUS');
    expect(text(result)).toMatch(/^The server answered 404 Not Found\.[\s\S]*This page moved away\./);
  });

  it('stops a slow answer when the batch is aborted, and at its time limit', async () => {
    const kernel = await kernelWith({ timeoutMs: 3000 });
    // A first fetch loads the worker, so the time limit below is spent waiting on the server.
    expect(text(await fetchUrl(kernel, `${site.base}/json`))).toContain('"version":2');
    const controller = new AbortController();
    const pending = runCalls(kernel, [call('WebFetch', { url: `${site.base}/slow` })], { signal: controller.signal });
    expect(await pollUntil(() => site.hits.get('/slow') === 1)).toBe(true);
    controller.abort();
    const [aborted] = await pending;
    expect(codeOf(aborted!)).toBe('ASSISTANT_TOOL_ABORTED');
    expect(await pollUntil(() => site.closedEarly.has('/slow'))).toBe(true);

    site.closedEarly.delete('/slow');
    const timedOut = await fetchUrl(kernel, `${site.base}/slow`);
    expect(codeOf(timedOut)).toBe('ASSISTANT_TOOL_TIMEOUT');
    expect(await pollUntil(() => site.closedEarly.has('/slow'))).toBe(true);
  });

  it('with a prompt, keeps the sections of a long page that mention it', async () => {
    const kernel = await kernelWith({ maxChars: 2000 });
    const focused = text(await fetchUrl(kernel, `${site.base}/long`, 'What is the pricing?'));
    expect(focused).toContain('Focus: What is the pricing?');
    expect(focused).toContain('The pricing is 10 euros a month.');
    expect(focused).toMatch(/kept the sections that mention the focus\]$/);
    const plain = text(await fetchUrl(kernel, `${site.base}/long`));
    expect(plain).not.toContain('The pricing is');
    expect(plain).toContain('## Part 0');
  });

  it('refuses other schemes with a coded error', async () => {
    const { kernel } = await kernelFor(makeProject({}));
    kernels.push(kernel);
    const result = await runOne(kernel, 'WebFetch', { url: 'file:///etc/passwd' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/http and https URLs only/);
  });

  it('fetches a loopback address once a person approves, connecting to the address that was judged', async () => {
    const { kernel } = await kernelFor(makeProject({}), undefined, { headless: false });
    kernels.push(kernel);
    const asked: string[] = [];
    kernel.hooks.approval.tapPromise('test-approve', async (items) => {
      for (const item of items) asked.push(item.decision.reason);
      return items.map(() => ({ behavior: 'allow' as const, scope: 'once' as const }));
    });
    const result = await runOne(kernel, 'WebFetch', { url: `${site.other}/json` });
    expect(asked).toEqual([expect.stringMatching(/^localhost resolves to (127\.0\.0\.1|::1), a loopback/)]);
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('{"name":"thing","version":2}');
  });

  it('asks before reaching a loopback address no rule names, and refuses one it was not asked about', async () => {
    const hitsBefore = site.hits.get('/json') ?? 0;
    // No rule names 127.0.0.1: the private-address layer asks, which headless means no.
    const asked = await runOne(await kernelWith({}, []), 'WebFetch', { url: `${site.base}/json` });
    expect(codeOf(asked)).toBe('ASSISTANT_TOOL_DENIED');
    expect(text(asked)).toMatch(/127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback, private or link-local address/);
    // A policy that allows the call before WebFetch's layer looked: the worker resolves it itself and refuses.
    const early = {
      name: 'early-allow',
      apply(kernel: Kernel) {
        kernel.hooks.permission.tapPromise({ name: 'early-allow', stage: -250 }, async () => ({ behavior: 'allow' as const, reason: 'test', layer: 'test' }));
      },
    };
    const { kernel } = await kernelFor(makeProject({}), [early]);
    kernels.push(kernel);
    const refused = await runOne(kernel, 'WebFetch', { url: `${site.other}/json` });
    expect(codeOf(refused)).toBe('ASSISTANT_WEBFETCH_PRIVATE_ADDRESS');
    expect(text(refused)).toContain('WebFetch(domain:localhost)');
    expect(site.hits.get('/json') ?? 0).toBe(hitsBefore);
  });
});
