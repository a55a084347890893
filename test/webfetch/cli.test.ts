// End to end: the built CLI, headless, with the fake LLM calling WebFetch on a real page served on
// 127.0.0.1. The project's exact-host rule lets it through; without it the private-address layer
// asks, which headless is a denial that says how to allow it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, requestText, runHeadless, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { startSite, type Site } from './server.js';

let fake: FakeLlm;
let site: Site;

beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
  site = await startSite({
    '/changelog': (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(`<html><head><title>Changelog</title></head><body><nav>NAVIGATION LINKS</nav><main><h1>Changelog</h1><h2>2.0.0</h2><p>${'Faster parser, fewer allocations, new plugin API. '.repeat(10)}</p></main></body></html>`),
  });
});
afterAll(async () => {
  await fake.close();
  await site.close();
});

function script(url: string): void {
  fake.setFixture({
    turns: [
      { name: 'fetch', when: { userText: 'changelog' }, reply: { toolCalls: [{ id: 'call_fetch', name: 'WebFetch', input: { url, prompt: 'what changed in 2.0.0' } }] } },
      { name: 'answer', when: { toolResultFor: 'call_fetch' }, reply: { text: 'Read the changelog.' } },
    ],
    fallback: { text: 'UNEXPECTED REQUEST' },
  });
  fake.reset();
}

describe('assistant -p with WebFetch', () => {
  it('fetches a page an exact-host rule allows and hands the model its markdown', async () => {
    script(`${site.base}/changelog`);
    const dir = gitProject({ '.assistantrc': JSON.stringify({ permissions: { allow: ['WebFetch(domain:127.0.0.1)'] } }) });
    const r = await runHeadless(fake, dir, ['--trust-project', 'summarize the changelog']);
    expect(r.stderr).not.toMatch(/denied/);
    expect(r.stdout).toBe('Read the changelog.\n');
    expect(r.code).toBe(0);
    const seen = requestText(fake.requests[fake.requests.length - 1]!);
    expect(seen).toContain('Title: Changelog');
    expect(seen).toContain('Focus: what changed in 2.0.0');
    expect(seen).toContain('## 2.0.0');
    expect(seen).not.toContain('NAVIGATION LINKS');
    expect(site.hits.get('/changelog')).toBe(1);
  });

  it('denies a loopback fetch headless when no rule names the host, saying how to allow it', async () => {
    script(`${site.other}/changelog`);
    const dir = gitProject({ '.assistantrc': JSON.stringify({ permissions: { allow: ['WebFetch'] } }) });
    const r = await runHeadless(fake, dir, ['--trust-project', 'summarize the changelog']);
    expect(r.stdout).toBe('Read the changelog.\n');
    expect(r.stderr).toContain('denied: WebFetch:');
    expect(r.stderr).toContain('localhost resolves to');
    expect(r.stderr).toContain('add "WebFetch(domain:localhost)" to permissions.allow');
    expect(site.hits.get('/changelog')).toBe(1);
  });
});
