import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../support/project.js';
import { gitProject, runHeadless, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { call, readEvents, startServe, type Served } from './support.js';

describe('assistant serve and the terminal on one machine (JSONL store)', () => {
  let fake: FakeLlm;
  let served: Served;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    fake = await startFakeLlm({
      fixture: {
        turns: [
          { when: { userText: 'on the web' }, times: 0, reply: { text: 'web answer' } },
          { when: { userText: 'in the terminal' }, times: 0, reply: { text: 'terminal answer' } },
        ],
      },
    });
    project = gitProject({ 'a.txt': 'a\n' });
    env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ASSISTANT_SERVE_LEASE_CHECK_MS: '200' });
    served = await startServe(project, env);
  }, 120_000);
  afterAll(async () => {
    await served?.stop();
    await fake?.close();
  });

  it('the terminal is refused a session the server holds, takes it over explicitly, and the server says where it went', async () => {
    const id = (await call(served, 'POST', '/api/sessions', { body: {} })).json.id as string;
    await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'on the web' } });
    await readEvents(served, id, (e) => e.some((x) => x.data.type === 'result'), { after: 0 });

    const refused = await runHeadless(fake, project, ['--resume', id, 'in the terminal'], { env: env as Record<string, string> });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('ASSISTANT_SESSION_IN_USE');
    expect(refused.stderr).toContain(`pid ${served.child.pid}`);

    const lost = readEvents(served, id, (e) => e.some((x) => x.event === 'lease_lost'), { after: 0 });
    const taken = await runHeadless(fake, project, ['--resume', id, '--take-over', 'in the terminal'], { env: env as Record<string, string> });
    expect(taken.stdout.trim()).toBe('terminal answer');
    expect((await lost).find((e) => e.event === 'lease_lost')!.data.where).toBeTruthy();
    const prompt = await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'on the web' } });
    expect(prompt.json.error.code).toBe('ASSISTANT_SERVE_LEASE_LOST');
    // The server's clients see the terminal's turn in the stored history.
    const view = (await call(served, 'GET', `/api/sessions/${id}`)).json;
    expect(view.lost_to).toBeTruthy();
    expect(JSON.stringify(view.messages)).toContain('terminal answer');
    // Taking it back is explicit, and then prompting works again.
    expect((await call(served, 'POST', `/api/sessions/${id}/attach`, { body: { take_over: true } })).status).toBe(200);
    expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'on the web' } })).status).toBe(202);
  });

  it('a take-over that came and went between two lease checks is still noticed before the next prompt: no prompt runs on a stale history', async () => {
    // This server never gets to check its lease on its own.
    const slow = await startServe(project, { ...env, ASSISTANT_SERVE_LEASE_CHECK_MS: '600000' });
    try {
      const id = (await call(slow, 'POST', '/api/sessions', { body: {} })).json.id as string;
      await call(slow, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'on the web' } });
      await readEvents(slow, id, (e) => e.some((x) => x.data.type === 'result'), { after: 0 });
      await expect.poll(async () => (await call(slow, 'GET', `/api/sessions/${id}`)).json.busy).toBe(false);
      const taken = await runHeadless(fake, project, ['--resume', id, '--take-over', 'in the terminal'], { env: env as Record<string, string> });
      expect(taken.code).toBe(0);
      const prompt = await call(slow, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'on the web' } });
      expect(prompt.status).toBe(409);
      expect(prompt.json.error.code).toBe('ASSISTANT_SERVE_LEASE_LOST');
      // Taking it back reloads the history, the terminal's turn included.
      const back = (await call(slow, 'POST', `/api/sessions/${id}/attach`, { body: { take_over: true } })).json;
      expect(JSON.stringify(back.messages)).toContain('terminal answer');
      expect((await call(slow, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'on the web' } })).status).toBe(202);
    } finally {
      await slow.stop();
    }
  });
});
