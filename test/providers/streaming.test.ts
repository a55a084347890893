// Behaviour both providers share, through the real SDKs against the fake server.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../dist/core/index.js';
import { ask, baseURLFor, collect, fakeProvider, providerFrom, READ_TOOL, startFakeLlm, stopOf, streamError, textOf, type FakeLlm, type ProviderName } from './helpers.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: {} });
});
afterAll(() => fake.close());
beforeEach(() => {
  for (const key of ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete process.env[key];
});

function script(fixture: object) {
  fake.setFixture(fixture);
  fake.requests.length = 0;
}

const GREP_TOOL = { name: 'Grep', description: 'Search files', inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } } };

describe.each<ProviderName>(['anthropic', 'openai'])('%s', (name) => {
  it('streams text as deltas and ends with the whole message and usage', async () => {
    script({ turns: [{ reply: { text: 'The quick brown fox jumps over the lazy dog.', chunkSize: 5 } }] });
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('tell me')));
    expect(events[0]).toEqual({ type: 'message_start', model: expect.any(String) });
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBe(9);
    expect(textOf(events)).toBe('The quick brown fox jumps over the lazy dog.');
    const stop = stopOf(events);
    expect(stop.reason).toBe('end_turn');
    expect(stop.message).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'The quick brown fox jumps over the lazy dog.' }] });
    // The fake counts one token per 4 characters: 44 characters of output.
    expect(stop.usage.outputTokens).toBe(11);
    expect(stop.usage.inputTokens).toBeGreaterThan(0);
    expect(events[events.length - 2]).toEqual({ type: 'usage', usage: stop.usage });
  });

  it('streams one tool call with its parsed input', async () => {
    script({ turns: [{ reply: { toolCalls: [{ id: 'call_a', name: 'Read', input: { path: 'README.md' } }] } }] });
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('read the readme', { tools: [READ_TOOL] })));
    expect(events.filter((e) => e.type.startsWith('tool_call_')).map((e) => e.type)).toEqual(['tool_call_start', 'tool_call_delta', 'tool_call_delta', 'tool_call_delta', 'tool_call_end']);
    const stop = stopOf(events);
    expect(stop.reason).toBe('tool_use');
    expect(stop.message.content).toEqual([{ type: 'tool_call', id: 'call_a', name: 'Read', input: { path: 'README.md' } }]);
    const tools = fake.requests[0]!.body.tools;
    expect(JSON.stringify(tools)).toContain('"Read"');
  });

  it('streams parallel tool calls in order, each complete', async () => {
    script({
      turns: [
        {
          reply: {
            text: 'Looking.',
            toolCalls: [
              { id: 'c1', name: 'Read', input: { path: 'a.ts' } },
              { id: 'c2', name: 'Grep', input: { pattern: 'TODO' } },
              { id: 'c3', name: 'Read', input: { path: 'b.ts' } },
            ],
          },
        },
      ],
    });
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('look', { tools: [READ_TOOL, GREP_TOOL] })));
    const ends = events.filter((e) => e.type === 'tool_call_end');
    expect(ends.map((e) => (e as { id: string }).id)).toEqual(['c1', 'c2', 'c3']);
    expect(stopOf(events).message.content).toEqual([
      { type: 'text', text: 'Looking.' },
      { type: 'tool_call', id: 'c1', name: 'Read', input: { path: 'a.ts' } },
      { type: 'tool_call', id: 'c2', name: 'Grep', input: { pattern: 'TODO' } },
      { type: 'tool_call', id: 'c3', name: 'Read', input: { path: 'b.ts' } },
    ]);
  });

  it('reassembles tool input split across many small deltas', async () => {
    const input = { path: 'src/deep/nested/file.ts', edits: [{ old: 'a "quoted" \\ value', new: 'ünïcödé ✓' }], flag: true };
    script({ turns: [{ reply: { toolCalls: [{ id: 'c1', name: 'Edit', input }], chunkSize: 1 } }] });
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('edit')));
    const deltas = events.filter((e) => e.type === 'tool_call_delta');
    expect(deltas.length).toBe(JSON.stringify(input).length);
    expect(events.find((e) => e.type === 'tool_call_end')).toEqual({ type: 'tool_call_end', id: 'c1', name: 'Edit', input });
  });

  it('sends a full tool exchange back in its wire format and continues', async () => {
    script({
      turns: [
        { reply: { toolCalls: [{ id: 'c1', name: 'Read', input: { path: 'a.txt' } }] } },
        { when: { toolResultFor: 'c1', toolResultContains: 'hello from a' }, reply: { text: 'The file says hello.' } },
      ],
    });
    const provider = await fakeProvider(fake, name);
    const first = stopOf(await collect(provider.stream(ask('read a.txt', { tools: [READ_TOOL] }))));
    const history: Message[] = [
      ...ask('read a.txt').messages,
      first.message,
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'hello from a' }] }] },
    ];
    const second = await collect(provider.stream(ask('', { messages: history, tools: [READ_TOOL] })));
    expect(textOf(second)).toBe('The file says hello.');
    expect(fake.requests[1]!.turn).toBe('turn 1');
  });

  it('answers a non-streamed call with the same message shape', async () => {
    script({ turns: [{ reply: { text: 'Sure.', toolCalls: [{ id: 'c9', name: 'Read', input: { path: 'x' } }] } }] });
    const provider = await fakeProvider(fake, name);
    const response = await provider.complete(ask('go', { tools: [READ_TOOL] }));
    expect(response.stopReason).toBe('tool_use');
    expect(response.message.content).toEqual([
      { type: 'text', text: 'Sure.' },
      { type: 'tool_call', id: 'c9', name: 'Read', input: { path: 'x' } },
    ]);
    expect(response.usage.outputTokens).toBeGreaterThan(0);
    expect(fake.requests[0]!.body.stream).not.toBe(true);
  });

  it('names an unknown model clearly', async () => {
    script({ models: ['known-model'], turns: [{ reply: { text: 'never' } }] });
    const provider = await fakeProvider(fake, name, { model: 'no-such-model' });
    const { error } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_MODEL_UNKNOWN');
    expect(error.message).toContain('"no-such-model"');
    expect(error.message).toContain('provider.model');
    expect(error.exitCode).toBe(3);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a rejected key (401) without retrying, naming the variable to check', async () => {
    script({ apiKey: 'right-key', turns: [{ reply: { text: 'never' } }] });
    process.env[name === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'] = 'wrong-key';
    const provider = await fakeProvider(fake, name);
    const { error } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_AUTH');
    expect(error.message).toMatch(name === 'anthropic' ? /401.*ANTHROPIC_API_KEY/ : /401.*OPENAI_API_KEY/);
    expect(fake.requests).toHaveLength(1);
  });

  it('sends the key from the environment', async () => {
    script({ apiKey: 'right-key', turns: [{ reply: { text: 'welcome' } }] });
    process.env[name === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'] = 'right-key';
    const provider = await fakeProvider(fake, name);
    expect(textOf(await collect(provider.stream(ask('hi'))))).toBe('welcome');
  });

  it('reports a 403 as an auth error', async () => {
    script({ turns: [{ faults: [{ status: 403, message: 'not allowed' }], reply: { text: 'never' } }] });
    const provider = await fakeProvider(fake, name);
    const { error } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_AUTH');
    expect(error.message).toMatch(/403: not allowed/);
  });

  it('fails at once without a key or base URL, saying exactly what to set', async () => {
    const keyEnv = name === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    const error = await providerFrom({ name }).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(error?.code).toBe('ASSISTANT_PROVIDER_NOT_CONFIGURED');
    expect(error?.message).toContain(keyEnv);
    expect(error?.message).toContain('provider.apiKeyEnv');
    expect(error?.message).toContain('provider.baseURL');
    expect(error?.message).toMatch(/Ollama or LM Studio server needs no key/);
  });

  it('reads the base URL from the environment when the config has none', async () => {
    script({ turns: [{ reply: { text: 'via env' } }] });
    process.env[name === 'anthropic' ? 'ANTHROPIC_BASE_URL' : 'OPENAI_BASE_URL'] = baseURLFor(fake, name);
    const provider = await providerFrom({ name });
    expect(textOf(await collect(provider.stream(ask('hi'))))).toBe('via env');
  });

  it('answers identical requests from the response cache when it is on', async () => {
    script({ turns: [{ reply: { text: 'first answer' } }, { reply: { text: 'second answer' } }] });
    const provider = await fakeProvider(fake, name, { responseCache: { max: 10, ttlMs: 60_000 } });
    const a = await collect(provider.stream(ask('same question')));
    const b = await collect(provider.stream(ask('same question')));
    expect(textOf(a)).toBe('first answer');
    expect(b).toEqual(a);
    expect(fake.requests).toHaveLength(1);
    const c = await collect(provider.stream(ask('another question')));
    expect(textOf(c)).toBe('second answer');
    expect(fake.requests).toHaveLength(2);
  });

  it('asks the server every time when the response cache is off (the default)', async () => {
    script({ turns: [{ reply: { text: 'first answer' } }, { reply: { text: 'second answer' } }] });
    const provider = await fakeProvider(fake, name);
    expect(textOf(await collect(provider.stream(ask('same'))))).toBe('first answer');
    expect(textOf(await collect(provider.stream(ask('same'))))).toBe('second answer');
  });

  it('estimates or counts tokens and knows its context window', async () => {
    const provider = await fakeProvider(fake, name);
    const small = await provider.countTokens(ask('hi'));
    const large = await provider.countTokens(ask('word '.repeat(2000)));
    expect(small).toBeGreaterThan(0);
    expect(large).toBeGreaterThan(1500);
    expect(large).toBeLessThan(4000);
    expect(provider.contextWindow(provider.defaultModel)).toBeGreaterThanOrEqual(128_000);
  });
});
