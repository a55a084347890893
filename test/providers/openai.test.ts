// OpenAI-only behaviour: keyless compatible servers, automatic prompt caching, the tokenizer, wire details.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Message, ProviderRequest } from '../../dist/core/index.js';
import { ask, collect, fakeProvider, READ_TOOL, startFakeLlm, stopOf, type FakeLlm } from './helpers.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: {} });
});
afterAll(() => fake.close());
beforeEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});

function script(fixture: object) {
  fake.setFixture(fixture);
  fake.requests.length = 0;
}

describe('OpenAI-compatible servers', () => {
  it('needs no key for a base URL and sends no Authorization header', async () => {
    script({ turns: [{ reply: { text: 'local model here' } }] });
    const provider = await fakeProvider(fake, 'openai', { model: 'qwen2.5-coder:7b' });
    const events = await collect(provider.stream(ask('hi')));
    expect(stopOf(events).message.content).toEqual([{ type: 'text', text: 'local model here' }]);
    const sent = fake.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body.model).toBe('qwen2.5-coder:7b');
    // Compatible servers get the classic field; OpenAI itself gets max_completion_tokens.
    expect(sent.body.max_tokens).toBe(1024);
    expect(sent.body.max_completion_tokens).toBeUndefined();
    expect(sent.body.stream_options).toEqual({ include_usage: true });
  });

  it('sends max_completion_tokens when asked to', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'openai', { maxTokensField: 'max_completion_tokens', reasoningEffort: 'low' });
    await collect(provider.stream(ask('hi')));
    expect(fake.requests[0]!.body).toMatchObject({ max_completion_tokens: 1024, reasoning_effort: 'low' });
  });

  it('shows streamed reasoning (reasoning_content) as thinking, and never sends it back', async () => {
    script({ turns: [{ reply: { thinking: 'Let me think.', text: 'Done thinking.' } }, { reply: { text: 'next' } }] });
    const provider = await fakeProvider(fake, 'openai');
    const events = await collect(provider.stream(ask('hi')));
    expect(events.filter((e) => e.type === 'thinking_delta').map((e) => (e as { text: string }).text).join('')).toBe('Let me think.');
    const message = stopOf(events).message;
    expect(message.content).toEqual([{ type: 'thinking', text: 'Let me think.' }, { type: 'text', text: 'Done thinking.' }]);
    await collect(provider.stream(ask('', { messages: [...ask('hi').messages, message, ...ask('more').messages] })));
    expect(fake.requests[1]!.body.messages[2]).toEqual({ role: 'assistant', content: 'Done thinking.' });
  });

  it('converts images, tool calls and error results to the Chat Completions format', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'openai');
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'Read', input: { path: 'x' } }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'no such file' }], isError: true }] },
    ];
    await collect(provider.stream(ask('', { messages, tools: [READ_TOOL], system: [{ id: 'a', text: 'one' }, { id: 'b', text: 'two' }] })));
    const body = fake.requests[0]!.body;
    expect(body.messages).toEqual([
      { role: 'system', content: 'one\n\ntwo' },
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'Read', arguments: '{"path":"x"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: no such file' },
    ]);
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'Read', description: 'Read a file', parameters: READ_TOOL.inputSchema } }]);
  });
});

describe('automatic prompt caching', () => {
  const longRequest = (question: string): ProviderRequest => ({
    ...ask(question),
    system: [{ id: 'base', text: 'You are a careful coding assistant. '.repeat(200) }],
  });

  it('reports cached_tokens as cache reads once a prefix over 1,024 tokens repeats, in 128-token steps', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'openai');
    const first = stopOf(await collect(provider.stream(longRequest('first question')))).usage;
    expect(first.cacheReadTokens).toBe(0);
    const second = stopOf(await collect(provider.stream(longRequest('second question')))).usage;
    expect(second.cacheReadTokens).toBeGreaterThanOrEqual(1024);
    expect(second.cacheReadTokens % 128).toBe(0);
    expect(second.cacheWriteTokens).toBe(0);
    // Input tokens exclude the cached ones, as for Anthropic.
    expect(second.inputTokens + second.cacheReadTokens).toBe(fake.requests[1]!.usage.promptTokens);
  });

  it('caches nothing under 1,024 tokens', async () => {
    script({ fallback: { text: 'ok' } });
    const provider = await fakeProvider(fake, 'openai');
    await collect(provider.stream(ask('short')));
    expect(stopOf(await collect(provider.stream(ask('short')))).usage.cacheReadTokens).toBe(0);
  });
});

describe('token counting', () => {
  it('counts exactly with the model tokenizer for OpenAI models', async () => {
    const provider = await fakeProvider(fake, 'openai');
    const text = 'function add(a: number, b: number) { return a + b; } // héllo wörld ✓ <|endoftext|>';
    const request = { ...ask(text), system: [] };
    // One message: 4 framing tokens around the text.
    expect(await provider.countTokens(request)).toBe(countTokens(text, { disallowedSpecial: new Set() }) + 4);
  });

  it('estimates for models whose tokenizer is unknown', async () => {
    const provider = await fakeProvider(fake, 'openai', { model: 'llama3.1:8b', contextWindow: 131072 });
    const count = await provider.countTokens({ ...ask('a'.repeat(360)), system: [] });
    expect(count).toBe(80 + 4);
    expect(provider.contextWindow('llama3.1:8b')).toBe(131072);
  });
});
