// Anthropic-only behaviour: thinking round-trips, cache_control breakpoints and cache usage, count_tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, ProviderRequest } from '../../dist/core/index.js';
import { ask, collect, fakeProvider, READ_TOOL, startFakeLlm, stopOf, streamError, type FakeLlm } from './helpers.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: {} });
});
afterAll(() => fake.close());

function script(fixture: object) {
  fake.setFixture(fixture);
  fake.requests.length = 0;
}

describe('extended thinking', () => {
  it('streams thinking, keeps signatures and redacted data, and sends them back as the API requires', async () => {
    script({
      turns: [
        {
          reply: {
            content: [
              { type: 'thinking', text: 'The user wants a.txt; I should read it.' },
              { type: 'redacted_thinking', data: 'EncryptedOpaqueBlob==' },
              { type: 'text', text: 'Reading it.' },
              { type: 'tool_call', id: 'toolu_1', name: 'Read', input: { path: 'a.txt' } },
            ],
          },
        },
        { when: { toolResultFor: 'toolu_1' }, reply: { thinking: 'It says hi.', text: 'It says hi.' } },
      ],
    });
    const provider = await fakeProvider(fake, 'anthropic', { thinking: { budgetTokens: 2048 } });
    const events = await collect(provider.stream(ask('read a.txt', { tools: [READ_TOOL], maxTokens: 1024 })));
    expect(events.filter((e) => e.type === 'thinking_delta').map((e) => (e as { text: string }).text).join('')).toBe('The user wants a.txt; I should read it.');
    const first = stopOf(events).message;
    expect(first.content[0]).toEqual({ type: 'thinking', text: 'The user wants a.txt; I should read it.', signature: expect.stringMatching(/^[A-Za-z0-9+/=]{20,}$/) });
    expect(first.content[1]).toEqual({ type: 'thinking', text: '', redacted: true, data: 'EncryptedOpaqueBlob==' });

    const sent = fake.requests[0]!.body;
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(sent.max_tokens).toBe(2048 + 1024);

    const history: Message[] = [
      ...ask('read a.txt').messages,
      first,
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'toolu_1', content: [{ type: 'text', text: 'hi' }] }] },
    ];
    // The fake refuses a changed signature, unknown redacted data, or a tool-use turn that does not start with thinking.
    const second = await collect(provider.stream(ask('', { messages: history, tools: [READ_TOOL], maxTokens: 1024 })));
    expect(stopOf(second).message.content.map((p) => p.type)).toEqual(['thinking', 'text']);
    const echoed = fake.requests[1]!.body.messages[1].content;
    expect(echoed.slice(0, 2)).toEqual([
      { type: 'thinking', thinking: 'The user wants a.txt; I should read it.', signature: first.content[0]!.type === 'thinking' ? first.content[0].signature : '' },
      { type: 'redacted_thinking', data: 'EncryptedOpaqueBlob==' },
    ]);
  });

  it('a tampered signature is refused by the API (and by the fake), so round-tripping is really checked', async () => {
    script({ turns: [{ reply: { text: 'never' } }] });
    const provider = await fakeProvider(fake, 'anthropic');
    const history: Message[] = [
      ...ask('hi').messages,
      { role: 'assistant', content: [{ type: 'thinking', text: 'x', signature: 'forged' }, { type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
    ];
    const { error } = await streamError(provider.stream(ask('', { messages: history })));
    expect(error.code).toBe('ASSISTANT_PROVIDER_BAD_REQUEST');
    expect(error.message).toMatch(/Invalid `signature`/);
  });
});

/** A system prompt well over the 1,024-token minimum (the fake counts 4 characters per token). */
const LONG_SYSTEM = 'You are a careful coding assistant. '.repeat(150);

function conversation(turns: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: [{ type: 'text', text: `question ${i}: ${'context '.repeat(60)}` }] });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] });
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'and now?' }] });
  return messages;
}

function cachedRequest(messages: Message[], cacheAfter: number[]): ProviderRequest {
  return { ...ask(''), system: [{ id: 'base', text: LONG_SYSTEM }], tools: [READ_TOOL], messages, cache: { system: true, messages: cacheAfter } };
}

describe('prompt caching', () => {
  it('places cache_control after system + tools and after the hinted messages', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'anthropic');
    await collect(provider.stream(cachedRequest(conversation(2), [1, 3])));
    const body = fake.requests[0]!.body;
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.system[body.system.length - 1].cache_control).toEqual({ type: 'ephemeral' });
    const marked = body.messages.flatMap((m: any, i: number) => m.content.flatMap((b: any) => (b.cache_control ? [i] : [])));
    expect(marked).toEqual([1, 3]);
  });

  it('never sends more than four breakpoints, keeping the latest', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'anthropic');
    const events = await collect(provider.stream(cachedRequest(conversation(4), [0, 1, 2, 3, 4, 5, 6])));
    expect(stopOf(events).reason).toBe('end_turn');
    const body = fake.requests[0]!.body;
    const marked = body.messages.flatMap((m: any, i: number) => m.content.flatMap((b: any) => (b.cache_control ? [i] : [])));
    expect(marked).toEqual([4, 5, 6]);
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
  });

  it('reports cache writes, then reads of the same prefix, then reads plus writes as the history grows', async () => {
    script({ cache: { ttlMs: 60_000 }, fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'anthropic');
    const usage = async (request: ProviderRequest) => stopOf(await collect(provider.stream(request))).usage;

    const first = await usage(cachedRequest(conversation(1), [1]));
    expect(first.cacheReadTokens).toBe(0);
    expect(first.cacheWriteTokens).toBeGreaterThan(1024);

    const again = await usage(cachedRequest(conversation(1), [1]));
    expect(again.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(again.cacheWriteTokens).toBe(0);
    expect(again.inputTokens).toBe(first.inputTokens);

    const longer = await usage(cachedRequest(conversation(2), [3]));
    expect(longer.cacheReadTokens).toBe(first.cacheWriteTokens);
    expect(longer.cacheWriteTokens).toBeGreaterThan(0);
    const total = (u: typeof first) => u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
    expect(total(longer)).toBeGreaterThan(total(first));
  });

  it('caches nothing without hints', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'anthropic');
    const request = { ...cachedRequest(conversation(1), []), cache: undefined };
    await collect(provider.stream(request));
    const second = stopOf(await collect(provider.stream(request))).usage;
    expect(second).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain('cache_control');
  });
});

describe('token counting', () => {
  it('asks the count_tokens endpoint when provider.tokenCount is "api"', async () => {
    script({});
    const provider = await fakeProvider(fake, 'anthropic', { tokenCount: 'api' });
    const request = ask('count these words please', { tools: [READ_TOOL] });
    const counted = await provider.countTokens(request);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/messages/count_tokens']);
    expect(counted).toBeGreaterThan(10);
    const estimated = await (await fakeProvider(fake, 'anthropic')).countTokens(request);
    expect(fake.requests).toHaveLength(1);
    expect(estimated).toBeGreaterThan(0);
  });
});
