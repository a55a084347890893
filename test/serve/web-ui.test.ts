import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { isolatedEnv } from '../support/project.js';
import { gitProject, runHeadless, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { pollUntil } from '../support/wait.js';
import { call, startServe, type Served } from './support.js';
import { haveChromium, launchChromium } from './browser.js';

const hostile = 'Done: the color is **blue** now. <img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>';

describe.runIf(haveChromium())('assistant serve: the web UI in a real browser', () => {
  let fake: FakeLlm;
  let served: Served;
  let project: string;
  let browser: BrowserContext;
  let attacker: Server;
  let env: NodeJS.ProcessEnv;
  let page: Page;

  beforeAll(async () => {
    fake = await startFakeLlm({
      fixture: {
        turns: [
          { when: { userText: 'make it blue' }, reply: { text: 'Reading it first.', toolCalls: [{ id: 'call_read', name: 'Read', input: { file_path: 'app.txt' } }] } },
          { when: { toolResultFor: 'call_read' }, reply: { toolCalls: [{ id: 'call_edit', name: 'Edit', input: { file_path: 'app.txt', old_string: 'color = red', new_string: 'color = blue' } }] } },
          { when: { toolResultFor: 'call_edit' }, reply: { text: hostile } },
          { when: { userText: 'terminal turn' }, reply: { text: 'answered in the terminal' } },
          { when: { userText: 'back on the web' }, reply: { text: 'answered on the web again' } },
        ],
      },
    });
    project = gitProject({ 'app.txt': 'name = demo\ncolor = red\nsize = 3\n' });
    env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    served = await startServe(project, env);
    browser = await launchChromium();
    // Another web page (another origin) the browser visits while logged in.
    attacker = createServer((_req, res) => res.end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    attacker?.close();
  });

  it('logs in from the URL fragment, runs a prompt, shows the edit as a side-by-side diff, applies it once approved, and renders the answer safely', async () => {
    page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => (dialogs.push(d.message()), void d.dismiss()));
    await page.goto(`${served.origin}/#token=${served.token}`);
    await page.locator('button.new-session').click();
    // The fragment is gone from the address bar once the login cookie is set.
    expect(new URL(page.url()).hash).toBe('');
    await page.locator('textarea[name=prompt]').fill('make it blue');
    await page.locator('form.prompt button[type=submit]').click();

    const approval = page.locator('.approval');
    await approval.waitFor({ timeout: 90_000 });
    await expect.poll(() => approval.locator('td.code.del').allTextContents(), { timeout: 30_000 }).toEqual(['color = red']);
    expect(await approval.locator('td.code.add').allTextContents()).toEqual(['color = blue']);
    expect(await approval.locator('.diff-path').textContent()).toContain('app.txt');
    // Nothing is written before the approval.
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toContain('color = red');
    await approval.locator('button.allow-once').click();

    const answer = page.locator('.item.assistant .markdown strong', { hasText: 'blue' });
    await answer.waitFor({ timeout: 90_000 });
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('name = demo\ncolor = blue\nsize = 3\n');
    await expect.poll(() => page.locator('.item.tool[data-tool=Edit] .status').textContent()).toBe('done');
    // The model's HTML never runs: no handler attributes, no script, title untouched.
    expect(await page.locator('.markdown img[onerror], .markdown script').count()).toBe(0);
    expect(await page.title()).toBe('assistant');
    expect(dialogs).toEqual([]);
    await expect.poll(() => page.locator('.context-tokens').textContent()).not.toBe('–');
  });

  it('says where the session went when the terminal takes it over, stops sending prompts, and takes it back on request', async () => {
    const id = await page.locator('.sessions li.current').getAttribute('data-session');
    const taken = await runHeadless(fake, project, ['--resume', id!, '--take-over', 'terminal turn'], { env: env as Record<string, string> });
    expect(taken.stdout.trim()).toBe('answered in the terminal');
    await page.locator('.lease-lost').waitFor({ timeout: 60_000 });
    expect(await page.locator('.lease-lost').textContent()).toMatch(/now active on (.*pid \d+|another surface \(which has since released it\))/); // held now, or held and given back between two checks
    expect(await page.locator('textarea[name=prompt]').isDisabled()).toBe(true);
    await page.locator('button.take-over').click();
    await page.locator('.item.assistant', { hasText: 'answered in the terminal' }).waitFor({ timeout: 60_000 });
    expect(await page.locator('.lease-lost').count()).toBe(0);
    await page.locator('textarea[name=prompt]').fill('back on the web');
    await page.locator('form.prompt button[type=submit]').click();
    await page.locator('.item.assistant', { hasText: 'answered on the web again' }).waitFor({ timeout: 90_000 });
  });

  it('refuses the API without the login, and requests another origin sends with the browser', async () => {
    const before = (await call(served, 'GET', '/api/sessions')).json.sessions.length;
    // A fresh profile (no cookie) on the server's own origin.
    const stranger = await launchChromium();
    try {
      const page = await stranger.newPage();
      await page.goto(`${served.origin}/`);
      expect(await page.evaluate(() => fetch('/api/sessions').then((r) => r.status))).toBe(401);
      await page.locator('.login .error').waitFor();
    } finally {
      await stranger.close();
    }
    // The logged-in browser visits another site, which tries to use the server.
    const page = await browser.newPage();
    const port = (attacker.address() as { port: number }).port;
    await page.goto(`http://127.0.0.1:${port}/`);
    const outcome = await page.evaluate(async (target) => {
      const results: string[] = [];
      for (const init of [
        { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' },
        { method: 'POST', credentials: 'include', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{}' },
        { method: 'GET', credentials: 'include' },
      ] as RequestInit[])
        results.push(await fetch(`${target}/api/sessions`, init).then((r) => `${r.type}:${r.status}`, () => 'blocked'));
      return results;
    }, served.origin);
    expect(outcome.every((r) => r === 'blocked' || r.startsWith('opaque'))).toBe(true);
    expect((await call(served, 'GET', '/api/sessions')).json.sessions.length).toBe(before);
  });
});
