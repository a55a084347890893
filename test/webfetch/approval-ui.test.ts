// WebFetch's approval in the real terminal UI (the built CLI in tmux, the fake LLM, a real page on
// 127.0.0.1): a loopback fetch asks, shows the URL and the host, offers no "always" (the answer is
// for that call only: docs/security.md), and once approved the page reaches the model; a public host
// asks before any lookup and offers "always" for its exact host (answered no here: no DNS leaves).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gitProject, requestText, sharedFakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import { TmuxTerminal, tmuxAvailable } from '../ui/tmux.js';
import { startSite, type Site } from './server.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && !process.env.CI) console.log('skipping the WebFetch approval tmux test: tmux is not installed');
const fake = sharedFakeLlm();
const terminals: TmuxTerminal[] = [];
let site: Site;
beforeAll(async () => {
  site = await startSite({
    '/changelog': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><h1>Changelog</h1><p>RELEASE-TWO-POINT-OH: faster parser.</p></main></body></html>'),
  });
});
afterAll(async () => site?.close());
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

describe.skipIf(!hasTmux)('WebFetch approval in the terminal UI', () => {
  it('asks for a loopback URL with its host and no "always"; a public host is offered "always" for its exact host', async () => {
    const url = `${site.base}/changelog`;
    const publicUrl = 'https://docs.example.invalid/guide';
    fake.script({
      turns: [
        { name: 'fetch', when: { userText: 'read the changelog' }, reply: { toolCalls: [{ id: 'f1', name: 'WebFetch', input: { url, prompt: 'what changed' } }] } },
        { name: 'fetched', when: { toolResultFor: 'f1' }, reply: { text: 'The changelog was read.' } },
        { name: 'public', when: { userText: 'read the guide' }, reply: { toolCalls: [{ id: 'f2', name: 'WebFetch', input: { url: publicUrl, prompt: 'summary' } }] } },
        { name: 'refused', when: { toolResultFor: 'f2' }, reply: { text: 'Not fetched, fine.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const dir = gitProject({ 'README.md': '# app\n' });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
    const term = TmuxTerminal.start({ cwd: dir, env, width: 160, height: 45 });
    terminals.push(term);
    await term.waitFor('Ask anything');

    term.type('read the changelog');
    term.keys('Enter');
    let screen = await term.waitFor(/Allow WebFetch[^\n]*\?/);
    expect(screen).toContain(url);
    expect(screen).toContain('127.0.0.1 resolves to 127.0.0.1, a loopback, private or link-local address');
    expect(screen).toMatch(/1\. Yes\n/);
    expect(screen).not.toMatch(/don't ask again|always in this project/);
    expect(screen).toMatch(/2\. No, and tell the model what to do instead/);
    term.type('1');
    await term.waitFor('The changelog was read.');
    expect(requestText(fake.server.requests.find((q) => q.turn === 'fetched')!)).toContain('RELEASE-TWO-POINT-OH');
    await term.waitFor('› Ask anything');

    // A public host asks before any lookup, offering its exact host for "this session" and "always".
    term.type('read the guide');
    term.keys('Enter');
    screen = await term.waitFor(/Allow WebFetch[^\n]*\?/);
    expect(screen).toContain(publicUrl);
    expect(screen).toContain("2. Yes, and don't ask again this session (WebFetch(domain:docs.example.invalid))");
    expect(screen).toContain('3. Yes, always in this project (WebFetch(domain:docs.example.invalid))');
    term.type('n');
    term.keys('Enter');
    await term.waitFor('Not fetched, fine.');
    expect(existsSync(join(dir, '.assistant', 'settings.local.json'))).toBe(false);
  }, 240_000);
});
