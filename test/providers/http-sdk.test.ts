// The bundled SDKs (dist/vendor, with Headers/Response/FormData bound to the kit's classes) on the
// kit's fetch, driven directly: their own retry logic reads retry-after from our headers, their
// stream reader reads our body, their abort detection recognizes our AbortError.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFetch } from '../../dist/core/kits/provider/index.js';
import { startFakeLlm, type FakeLlm } from './helpers.js';

type AnthropicClass = typeof import('../../plugins/provider-anthropic/messages-client.js').MessagesClient;
type OpenAIClass = typeof import('openai').default;

let fake: FakeLlm;
let Anthropic: AnthropicClass;
let OpenAI: OpenAIClass;

beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { fallback: { text: 'fallback' } } });
  const vendored = (file: string) => createRequire(import.meta.url)(fileURLToPath(new URL(`../../dist/vendor/${file}`, import.meta.url)));
  Anthropic = (vendored('anthropic-sdk.cjs') as { MessagesClient: AnthropicClass }).MessagesClient;
  OpenAI = (vendored('openai.cjs') as { default: OpenAIClass }).default;
});
afterAll(() => fake.close());

const anthropic = () => new Anthropic({ baseURL: fake.anthropicBaseURL, apiKey: 'k', maxRetries: 3, fetch: nodeFetch as unknown as typeof fetch });
const openai = () => new OpenAI({ baseURL: fake.openaiBaseURL, apiKey: 'k', maxRetries: 3, fetch: nodeFetch as unknown as typeof fetch });
const FAULTS = [{ status: 429, retryAfterMs: 10 }, { status: 529, retryAfter: 0 }, { type: 'reset_before_headers' as const }];

describe('the bundled SDKs on the kit fetch', () => {
  it('anthropic: retries 429 (retry-after-ms), 529 and a reset on its own, then streams the reply', async () => {
    fake.setFixture({ turns: [{ faults: FAULTS, reply: { text: 'streamed after retries' } }] });
    fake.reset();
    const stream = await anthropic().messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    expect(text).toBe('streamed after retries');
    expect(fake.requests.length).toBe(4);
  });

  it('openai: retries the same faults, then answers a non-streamed call', async () => {
    fake.setFixture({ turns: [{ faults: FAULTS, reply: { text: 'answered after retries' } }] });
    fake.reset();
    const reply = await openai().chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
    expect(reply.choices[0]!.message.content).toBe('answered after retries');
    expect(fake.requests.length).toBe(4);
  });

  it('anthropic: a 400 becomes the SDK error with status, parsed body and headers', async () => {
    fake.setFixture({ turns: [{ faults: [{ status: 400, message: 'bad thing', errorType: 'invalid_request_error' }], reply: { text: 'x' } }] });
    const error = (await anthropic().messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as InstanceType<AnthropicClass['APIError']>;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.message).toContain('bad thing');
    expect(error.headers?.get('content-type')).toContain('application/json');
  });

  // The SDKs end a stream quietly when its request was aborted (they recognize the AbortError); the
  // platform fetch is the reference.
  it.each([
    ['anthropic', 'kit'],
    ['openai', 'kit'],
    ['anthropic', 'platform'],
    ['openai', 'platform'],
  ])('%s on the %s fetch: an abort mid-stream ends the stream quietly, as with the platform fetch', async (name, which) => {
    fake.setFixture({ eventDelayMs: 50, chunkSize: 1, turns: [{ reply: { text: 'a fairly long reply, streamed one character at a time' } }] });
    const fetchFn = (which === 'kit' ? nodeFetch : globalThis.fetch) as unknown as typeof fetch;
    const controller = new AbortController();
    const options = { signal: controller.signal };
    const stream =
      name === 'anthropic'
        ? await new Anthropic({ baseURL: fake.anthropicBaseURL, apiKey: 'k', fetch: fetchFn }).messages.create({ model: 'claude-sonnet-4-6', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], stream: true }, options)
        : await new OpenAI({ baseURL: fake.openaiBaseURL, apiKey: 'k', fetch: fetchFn }).chat.completions.create({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], stream: true }, options);
    let events = 0;
    for await (const _event of stream as AsyncIterable<unknown>) if (++events === 3) controller.abort();
    // Events parsed from a chunk that had already arrived may still come; the ~50 of the whole reply do not.
    expect(events).toBeGreaterThanOrEqual(3);
    expect(events).toBeLessThan(10);
  });
});
