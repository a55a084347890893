import { readFileSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import { isolatedEnv, makeProject } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { pollUntil } from '../support/wait.js';
import { call, getWithHost, readEvents, startServe, type Served } from './support.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/stream-json.schema.json', import.meta.url), 'utf8'));

describe('assistant serve: the HTTP API', () => {
  let fake: FakeLlm;
  let served: Served;
  let env: NodeJS.ProcessEnv;
  let project: string;

  beforeAll(async () => {
    fake = await startFakeLlm({
      fixture: {
        turns: [
          { when: { userText: 'first' }, reply: { text: 'The **first** answer.' } },
          { when: { userText: 'second' }, reply: { text: 'The second answer.' } },
        ],
      },
    });
    project = makeProject({ 'notes.txt': 'hello\n' });
    env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    served = await startServe(project, env);
  }, 120_000);
  afterAll(async () => {
    await served?.stop();
    await fake?.close();
  });

  it('prints the URL with the token in its fragment once, and keeps the token in a 0600 file', () => {
    expect(served.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(served.stdout().split(served.token).length - 1).toBe(1); // in the URL line only
    const dir = join(env.ASSISTANT_DATA_DIR!, 'serve');
    const [file] = readdirSync(dir);
    expect(readFileSync(join(dir, file!), 'utf8').trim()).toBe(served.token);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(served.stderr()).not.toContain(served.token);
  });

  it('refuses requests without the token, with a wrong token, from another Origin or for another Host', async () => {
    const none = await call(served, 'GET', '/api/sessions', { token: null });
    expect(none.status).toBe(401);
    expect(none.json.error.code).toBe('ASSISTANT_SERVE_UNAUTHORIZED');
    expect((await call(served, 'GET', '/api/sessions', { token: 'x'.repeat(43) })).status).toBe(401);
    const evil = await call(served, 'GET', '/api/sessions', { headers: { origin: 'http://evil.example' } });
    expect(evil.status).toBe(403);
    expect(evil.json.error.code).toBe('ASSISTANT_SERVE_ORIGIN_REFUSED');
    // DNS rebinding: a page on attacker.example resolved to 127.0.0.1 sends its own Host.
    const port = new URL(served.origin).port;
    expect(await getWithHost(served, '/api/sessions', `attacker.example:${port}`)).toBe(403);
    expect(await getWithHost(served, '/', `attacker.example:${port}`, null)).toBe(403);
    expect(await getWithHost(served, '/api/sessions', `127.0.0.1:${port}`)).toBe(200);
    // No wildcard CORS, ever.
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const login = await call(served, 'POST', '/api/login', { token: null, body: { token: served.token }, headers: { origin: 'http://evil.example' } });
    expect(login.status).toBe(403);
    expect(login.headers.get('set-cookie')).toBeNull();
  });

  it('logs in with the token into an HttpOnly SameSite=Strict cookie, which changes nothing without our Origin', async () => {
    const bad = await call(served, 'POST', '/api/login', { token: null, body: { token: 'nope' }, headers: { origin: served.origin } });
    expect(bad.status).toBe(401);
    const login = await call(served, 'POST', '/api/login', { token: null, body: { token: served.token }, headers: { origin: served.origin } });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toContain(served.token);
    const pair = cookie.split(';')[0]!;
    expect((await call(served, 'GET', '/api/sessions', { token: null, headers: { cookie: pair } })).status).toBe(200);
    // A cookie alone (a cross-site form or fetch) may not change anything.
    const blind = await call(served, 'POST', '/api/sessions', { token: null, body: {}, headers: { cookie: pair } });
    expect(blind.status).toBe(403);
  });

  it('serves the page under a strict Content-Security-Policy, and only its three files', async () => {
    const page = await call(served, 'GET', '/', { token: null });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect((await call(served, 'GET', '/app.js', { token: null })).status).toBe(200);
    for (const path of ['/index.html', '/%2e%2e/%2e%2e/package.json', '/app.js.map', '/server.js']) expect((await call(served, 'GET', path, { token: null })).status, path).toBe(404);
  });

  it('refuses bodies that are not JSON or too large, with coded JSON errors', async () => {
    const form = await fetch(`${served.origin}/api/sessions`, { method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(415);
    expect(((await form.json()) as any).error.code).toBe('ASSISTANT_SERVE_BAD_REQUEST');
    const big = await call(served, 'POST', '/api/sessions', { body: { pad: 'x'.repeat(300 * 1024) } });
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe('ASSISTANT_SERVE_TOO_LARGE');
    expect((await call(served, 'GET', '/api/sessions/not-an-id')).json.error.code).toBe('ASSISTANT_SERVE_BAD_REQUEST');
  });

  it('creates a session, runs prompts, and streams stream-json events that resume after Last-Event-ID with none lost or doubled', async () => {
    const created = await call(served, 'POST', '/api/sessions', { body: {} });
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'first question' } })).status).toBe(202);
    const done = (events: { data: any }[]) => events.some((e) => e.data.type === 'result');
    const first = await readEvents(served, id, done, { after: 0 });
    const result = first.find((e) => e.data.type === 'result')!;
    expect(result.data.text).toBe('The **first** answer.');
    // A prompt while the first is running would be refused; this one waits until idle.
    await pollUntil(async () => !(await call(served, 'GET', `/api/sessions/${id}`)).json.busy);
    expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'second question' } })).status).toBe(202);
    // Reconnect after the middle of the first stream, as EventSource would.
    const cut = Number(first[Math.floor(first.length / 2)]!.id);
    const resumed = await readEvents(served, id, (events) => events.filter((e) => e.data.type === 'result').length === 2, { lastEventId: cut });
    const ids = resumed.map((e) => Number(e.id));
    expect(ids[0]).toBe(cut + 1);
    ids.forEach((n, i) => i && expect(n).toBe(ids[i - 1]! + 1));
    expect(resumed.filter((e) => e.data.type === 'result').map((e) => e.data.text)).toEqual(['The **first** answer.', 'The second answer.']);
    expect(resumed.filter((e) => e.event === 'prompt').map((e) => e.data.text)).toEqual(['second question']);
    // The stream-json lines follow the published schema.
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const e of [...first, ...resumed].filter((e) => e.event === 'message')) expect(validate(e.data), JSON.stringify(e.data)).toBe(true);
    const list = await call(served, 'GET', '/api/sessions');
    expect(list.json.sessions.find((s: any) => s.id === id)).toMatchObject({ attached: true });
  });
});
