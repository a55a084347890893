import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { startFakeLlm, requestText, type FakeLlm } from '../e2e/support.js';
import { redisServerBinary, startRedis, type RedisServer } from '../sessions/redis-server.js';
import { call, readEvents, startServe, type Served } from './support.js';

const binary = redisServerBinary();

/** Prompts a session on a server and waits for its `result` line. */
async function promptAndWait(served: Served, id: string, text: string) {
  const start = (await call(served, 'GET', `/api/sessions/${id}`)).json.last_event_id as number;
  expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text } })).status).toBe(202);
  const seen = await readEvents(served, id, (e) => e.some((x) => x.data.type === 'result'), { after: start });
  return seen.find((e) => e.data.type === 'result')!.data;
}

describe.runIf(binary)('assistant serve: two servers on one Redis', () => {
  let redis: RedisServer;
  let fake: FakeLlm;
  let a: Served;
  let b: Served;

  beforeAll(async () => {
    redis = await startRedis(binary!);
    fake = await startFakeLlm({
      fixture: {
        turns: [
          { when: { userText: 'from A' }, reply: { text: 'answer on A' } },
          { when: { userText: 'from B' }, reply: { text: 'answer on B' } },
        ],
      },
    });
    const persistence = { store: 'redis', redis: { url: redis.url, keyPrefix: 'serve:', spoolDir: tempDir('assistant-spool-'), leaseSeconds: 30 } };
    const project = makeProject({ '.assistantrc.json': JSON.stringify({ persistence }) });
    // Two machines: their own homes (tokens, data), one Redis. A checks its lease often, so the test need not wait.
    a = await startServe(project, isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ASSISTANT_SERVE_LEASE_CHECK_MS: '200' }), ['--trust-project']);
    b = await startServe(project, isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ASSISTANT_SERVE_LEASE_CHECK_MS: '200' }), ['--trust-project']);
  }, 180_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await fake?.close();
    await redis?.kill();
  });

  it("shares a session's history; only the lease holder prompts; the one that lost it says where it went", async () => {
    const id = (await call(a, 'POST', '/api/sessions', { body: {} })).json.id as string;
    expect((await promptAndWait(a, id, 'from A')).text).toBe('answer on A');

    // B sees the session and its history, held by A.
    const listed = (await call(b, 'GET', '/api/sessions')).json.sessions.find((s: any) => s.id === id);
    expect(listed).toMatchObject({ attached: false });
    const view = (await call(b, 'GET', `/api/sessions/${id}`)).json;
    expect(JSON.stringify(view.messages)).toContain('answer on A');
    // B may not drive it without taking it over: refused with where it is held.
    const refused = await call(b, 'POST', `/api/sessions/${id}/attach`, { body: {} });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('ASSISTANT_SESSION_IN_USE');
    expect(refused.json.error.message).toContain(`pid ${a.child.pid}`);
    expect((await call(b, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'from B' } })).json.error.code).toBe('ASSISTANT_SERVE_NOT_ATTACHED');

    // B takes it over explicitly, and A tells its clients where the session went.
    const aEvents = readEvents(a, id, (e) => e.some((x) => x.event === 'lease_lost'), { after: 0 });
    expect((await call(b, 'POST', `/api/sessions/${id}/attach`, { body: { take_over: true } })).status).toBe(200);
    const lost = (await aEvents).find((e) => e.event === 'lease_lost')!;
    expect(lost.data.where).toContain(`pid ${b.child.pid}`);
    const refusedOnA = await call(a, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'from A again' } });
    expect(refusedOnA.status).toBe(409);
    expect(refusedOnA.json.error.code).toBe('ASSISTANT_SERVE_LEASE_LOST');
    expect((await call(a, 'GET', `/api/sessions/${id}`)).json.lost_to).toContain(`pid ${b.child.pid}`);

    // B continues the same conversation: the model sees A's turn.
    fake.reset();
    expect((await promptAndWait(b, id, 'from B')).text).toBe('answer on B');
    expect(requestText(fake.requests.at(-1)!)).toContain('answer on A');
    const onB = (await call(b, 'GET', `/api/sessions/${id}`)).json;
    expect([onB.attached, onB.lost_to]).toEqual([true, undefined]);
    // A's clients, reading the shared store, see B's turn and where the session is.
    const onA = (await call(a, 'GET', `/api/sessions/${id}`)).json;
    expect(onA).toMatchObject({ attached: false, lost_to: expect.stringContaining(`pid ${b.child.pid}`) });
    expect(JSON.stringify(onA.messages)).toContain('answer on B');
  });
});
