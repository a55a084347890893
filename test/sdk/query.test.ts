// query(): one prompt in a project, through the real provider SDK against the fake LLM server, the
// events typed as stream-json's, approvals answered by a callback, interrupts and resume.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, type QueryOptions, type StreamJsonEvent, type ToolApproval } from '../../dist/config/sdk.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';
import { makeProject } from '../support/project.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

const provider = () => ({ provider: { name: 'anthropic', model: 'claude-sonnet-4-6', baseURL: fake.anthropicBaseURL } });

async function collect(prompt: string, cwd: string, options: QueryOptions = {}): Promise<StreamJsonEvent[]> {
  const events: StreamJsonEvent[] = [];
  for await (const event of query({ prompt, cwd, options: { noUserConfig: true, config: provider(), ...options } })) events.push(event);
  return events;
}

const resultOf = (events: StreamJsonEvent[]) => {
  const last = events.at(-1)!;
  if (last.type !== 'result') throw new Error(`the last event is ${last.type}, not result`);
  return last;
};

describe('query()', () => {
  it('streams text deltas and ends with the result, every event of one session', async () => {
    fake.setFixture({ turns: [{ reply: { text: 'The answer is forty-two.', chunkSize: 4 } }] });
    const events = await collect('what is the answer?', makeProject());
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((e) => (e.type === 'text_delta' ? e.text : '')).join('')).toBe('The answer is forty-two.');
    expect(resultOf(events)).toMatchObject({ reason: 'completed', is_error: false, text: 'The answer is forty-two.', turns: 1 });
    expect(new Set(events.map((e) => e.session_id)).size).toBe(1);
  });

  it('asks canUseTool about an edit and runs it when allowed', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'create notes' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'hello\n' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Created.' } },
      ],
    });
    const dir = makeProject();
    const asked: ToolApproval[] = [];
    const events = await collect('create notes', dir, { canUseTool: (approval) => (asked.push(approval), { behavior: 'allow' }) });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'Write', input: { file_path: 'notes.txt', content: 'hello\n' } });
    expect(asked[0]!.reason).toMatch(/notes\.txt/);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ id: 'w1', is_error: false });
    expect(resultOf(events)).toMatchObject({ reason: 'completed', text: 'Created.' });
  });

  it('refuses the call when canUseTool denies, and the model reads the message', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'create notes' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'hello\n' } }] } },
        { when: { toolResultContains: 'use the README instead' }, reply: { text: 'Understood.' } },
        { name: 'anything else', reply: { text: 'the denial message never reached the model' } },
      ],
    });
    const dir = makeProject();
    const events = await collect('create notes', dir, { canUseTool: () => ({ behavior: 'deny', message: 'use the README instead' }) });
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ id: 'w1', is_error: true });
    expect(events.some((e) => e.type === 'permission' && e.behavior === 'deny' && e.layer === 'approval')).toBe(true);
    expect(resultOf(events)).toMatchObject({ reason: 'completed', text: 'Understood.' });
  });

  it('denies a call needing approval when there is no callback, as -p does', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'create notes' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'x' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Could not.' } },
      ],
    });
    const dir = makeProject();
    const events = await collect('create notes', dir);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ is_error: true });
  });

  it('fails closed on a malformed answer', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'create notes' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'notes.txt', content: 'x' } }] } },
        { when: { toolResultFor: 'w1' }, reply: { text: 'Could not.' } },
      ],
    });
    const dir = makeProject();
    await collect('create notes', dir, { canUseTool: () => ({ behavior: 'yes' }) as never });
    expect(existsSync(join(dir, 'notes.txt'))).toBe(false);
  });

  it('stops mid-turn on interrupt(), keeping what was streamed', async () => {
    fake.setFixture({ turns: [{ reply: { text: 'Once upon a time there was a very long story that went on and on and on.', chunkSize: 4, eventDelayMs: 40 } }] });
    const q = query({ prompt: 'tell a story', cwd: makeProject(), options: { noUserConfig: true, config: provider() } });
    const events: StreamJsonEvent[] = [];
    for await (const event of q) {
      events.push(event);
      if (event.type === 'text_delta') q.interrupt();
    }
    expect(resultOf(events).reason).toBe('aborted');
    const streamed = events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
    expect(streamed.length).toBeLessThan('Once upon a time there was a very long story that went on and on and on.'.length);
  });

  it('stops when the AbortSignal aborts', async () => {
    fake.setFixture({ turns: [{ reply: { text: 'Once upon a time there was a very long story that went on and on and on.', chunkSize: 4, eventDelayMs: 40 } }] });
    const controller = new AbortController();
    const events: StreamJsonEvent[] = [];
    for await (const event of query({ prompt: 'tell a story', cwd: makeProject(), options: { noUserConfig: true, config: provider(), signal: controller.signal } })) {
      events.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    expect(resultOf(events).reason).toBe('aborted');
  });

  it('resumes a session by id: the model sees the earlier exchange', async () => {
    fake.setFixture({
      turns: [
        { when: { userText: 'remember the word' }, reply: { text: 'I will remember "pelican".' } },
        { when: { userText: 'which word?' }, reply: { text: 'pelican' } },
      ],
    });
    const dir = makeProject();
    const first = await collect('remember the word', dir);
    const id = first[0]!.session_id;
    fake.reset();
    const second = await collect('which word?', dir, { resume: id });
    expect(second[0]!.session_id).toBe(id);
    expect(resultOf(second)).toMatchObject({ reason: 'completed', text: 'pelican' });
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain('I will remember');
  });

  it('throws a coded error for an unknown session and a bad option', async () => {
    await expect(collect('hi', makeProject(), { resume: 'no-such-session' })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_NOT_FOUND' });
    expect(() => query({ prompt: '  ' })).toThrow(/needs a prompt/);
    expect(() => query({ prompt: 'x', options: { maxTurns: 0 } })).toThrow(/maxTurns/);
  });
});
