import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../support/project.js';
import { runCli } from '../support/cli.js';
import { gitProject, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { call, readEvents, startServe, type Served, type SseEvent } from './support.js';

const editTurns = (word: string) => [
  { when: { userText: `${word} it` }, reply: { toolCalls: [{ id: `read_${word}`, name: 'Read', input: { file_path: 'app.txt' } }] } },
  { when: { toolResultFor: `read_${word}` }, reply: { toolCalls: [{ id: `edit_${word}`, name: 'Edit', input: { file_path: 'app.txt', old_string: 'color = red', new_string: `color = ${word}` } }] } },
  { when: { toolResultFor: `edit_${word}` }, reply: { text: `${word} handled` } },
];

describe('assistant serve: approvals, interrupts and refusals over the API', () => {
  let fake: FakeLlm;
  let served: Served;
  let project: string;
  let id: string;

  beforeAll(async () => {
    fake = await startFakeLlm({
      fixture: {
        turns: [
          ...editTurns('green'),
          ...editTurns('blue'),
          { when: { userText: 'slow' }, reply: { text: 'a very slow answer that streams for a long time', chunkSize: 1, eventDelayMs: 400 } },
        ],
      },
    });
    project = gitProject({ 'app.txt': 'color = red\n' });
    served = await startServe(project, isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL }));
    id = (await call(served, 'POST', '/api/sessions', { body: {} })).json.id;
  }, 120_000);
  afterAll(async () => {
    await served?.stop();
    await fake?.close();
  });

  const lastId = async () => (await call(served, 'GET', `/api/sessions/${id}`)).json.last_event_id as number;
  const until = (pred: (e: SseEvent) => boolean) => (events: SseEvent[]) => events.some(pred);

  it('asks the web client with the diff of the edit; a denial leaves the file alone and tells the model', async () => {
    const start = await lastId();
    expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'green it' } })).status).toBe(202);
    const asked = await readEvents(served, id, until((e) => e.event === 'approval_request'), { after: start });
    const request = asked.find((e) => e.event === 'approval_request')!.data;
    expect(request).toMatchObject({ tool: 'Edit', diff: { path: 'app.txt' } });
    expect(request.diff.hunks[0].lines).toEqual(['-color = red', '+color = green']);
    expect(request.diff.partial).toBeUndefined();
    // A client that attaches now sees the pending approval in the view.
    expect((await call(served, 'GET', `/api/sessions/${id}`)).json.approvals.map((a: any) => a.approval_id)).toEqual([request.approval_id]);
    // A second prompt while this one waits is refused.
    expect((await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'again' } })).json.error.code).toBe('ASSISTANT_SERVE_SESSION_BUSY');
    expect((await call(served, 'POST', `/api/sessions/${id}/approvals/${request.approval_id}`, { body: { behavior: 'maybe' } })).status).toBe(400);
    expect((await call(served, 'POST', `/api/sessions/${id}/approvals/${request.approval_id}`, { body: { behavior: 'deny', scope: 'once' } })).status).toBe(200);
    expect((await call(served, 'POST', `/api/sessions/${id}/approvals/${request.approval_id}`, { body: { behavior: 'allow' } })).status).toBe(404);
    const rest = await readEvents(served, id, until((e) => e.data.type === 'result'), { after: Number(asked.at(-1)!.id) });
    expect(rest.find((e) => e.event === 'approval_resolved')!.data).toMatchObject({ behavior: 'deny' });
    expect(rest.find((e) => e.data.type === 'tool_result' && e.data.name === 'Edit')!.data.is_error).toBe(true);
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('color = red\n');
  });

  it('"allow for this session" lets the edit run', async () => {
    await expect.poll(async () => (await call(served, 'GET', `/api/sessions/${id}`)).json.busy, { timeout: 60_000 }).toBe(false);
    const start = await lastId();
    await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'blue it' } });
    const asked = await readEvents(served, id, until((e) => e.event === 'approval_request'), { after: start });
    const approval = asked.find((e) => e.event === 'approval_request')!.data;
    await call(served, 'POST', `/api/sessions/${id}/approvals/${approval.approval_id}`, { body: { behavior: 'allow', scope: 'session' } });
    const rest = await readEvents(served, id, until((e) => e.data.type === 'result'), { after: Number(asked.at(-1)!.id) });
    expect(rest.find((e) => e.data.type === 'result')!.data.text).toBe('blue handled');
    expect(readFileSync(join(project, 'app.txt'), 'utf8')).toBe('color = blue\n');
  });

  it('interrupts a running prompt', async () => {
    await expect.poll(async () => (await call(served, 'GET', `/api/sessions/${id}`)).json.busy, { timeout: 60_000 }).toBe(false);
    const start = await lastId();
    await call(served, 'POST', `/api/sessions/${id}/prompt`, { body: { text: 'slow' } });
    await readEvents(served, id, until((e) => e.data.type === 'text_delta'), { after: start });
    expect((await call(served, 'POST', `/api/sessions/${id}/interrupt`, { body: {} })).status).toBe(202);
    const events = await readEvents(served, id, until((e) => e.data.type === 'result'), { after: start });
    expect(events.find((e) => e.data.type === 'result')!.data.reason).toBe('aborted');
  });

  it('refuses to bind another address without --allow-remote', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0'], { cwd: project, env: isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL }), timeoutMs: 100_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ASSISTANT_SERVE_BIND_REFUSED');
    expect(result.stdout).not.toContain('token');
  });
});
