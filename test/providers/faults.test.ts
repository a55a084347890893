// Every injected fault, driven through the real SDK clients of both providers against the fake server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultSpec, ReplySpec } from '../../dist/core/testing/index.js';
import { ask, collect, fakeProvider, READ_TOOL, startFakeLlm, stopOf, streamError, textOf, type FakeLlm, type ProviderName } from './helpers.js';

const REPLY = { text: 'All good here.' };
const TOOL_REPLY = { text: 'Reading.', toolCalls: [{ id: 'call_read', name: 'Read', input: { path: 'src/index.ts', offset: 10, limit: 200 } }] };

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: {} });
});
afterAll(() => fake.close());

/** Loads a one-turn fixture whose turn first fails with `faults`. */
function script(faults: FaultSpec[], reply: ReplySpec = REPLY, extra: object = {}) {
  fake.setFixture({ turns: [{ faults, reply }], ...extra });
  fake.requests.length = 0;
}

const retries = (events: { type: string }[]) => events.filter((e) => e.type === 'retry');

describe.each<ProviderName>(['anthropic', 'openai'])('%s', (name) => {
  it.each([
    [429, 'ASSISTANT_PROVIDER_RATE_LIMITED'],
    [529, 'ASSISTANT_PROVIDER_RATE_LIMITED'],
    [500, 'ASSISTANT_PROVIDER_SERVER'],
    [503, 'ASSISTANT_PROVIDER_SERVER'],
  ])('retries a %i and then completes', async (status, code) => {
    script([{ status }]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)).toEqual([expect.objectContaining({ type: 'retry', attempt: 1, delayMs: 20, code })]);
    expect(textOf(events)).toBe('All good here.');
    expect(fake.requests.map((r) => r.status)).toEqual([status, 200]);
  });

  it('honours retry-after over its own backoff', async () => {
    script([{ status: 429, retryAfterMs: 250 }]);
    const provider = await fakeProvider(fake, name);
    const started = Date.now();
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)[0]).toMatchObject({ delayMs: 250 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(stopOf(events).reason).toBe('end_turn');
  });

  it('gives up after the configured retries with a clear, coded error', async () => {
    script([{ status: 529 }, { status: 529 }, { status: 529 }]);
    const provider = await fakeProvider(fake, name, { retries: { attempts: 2, initialDelayMs: 5, jitter: 0 } });
    const { error, events } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_RATE_LIMITED');
    expect(error.message).toMatch(/overloaded \(529.*gave up after 3 tries: the first and 2 retries; provider\.retries\.attempts is 2\)/);
    expect(retries(events).map((e) => (e as unknown as { delayMs: number }).delayMs)).toEqual([5, 10]);
    expect(fake.requests).toHaveLength(3);
  });

  it('does not wait for a retry-after longer than allowed', async () => {
    script([{ status: 429, retryAfter: 120 }]);
    const provider = await fakeProvider(fake, name);
    const { error } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_RATE_LIMITED');
    expect(error.message).toMatch(/asked to wait 120 s, longer than provider\.retries\.maxRetryAfterMs/);
    expect(fake.requests).toHaveLength(1);
  });

  it('waits through a slow first byte within the timeout', async () => {
    script([{ type: 'slow_first_byte', delayMs: 300 }]);
    const provider = await fakeProvider(fake, name, { timeoutMs: 20_000 });
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)).toEqual([]);
    expect(textOf(events)).toBe('All good here.');
  });

  it('times out a first byte slower than the timeout, then retries', async () => {
    // The retried request must answer within the timeout too: 1 s leaves a busy machine room.
    script([{ type: 'slow_first_byte', delayMs: 20_000 }]);
    const provider = await fakeProvider(fake, name, { timeoutMs: 1000 });
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)[0]).toMatchObject({ code: 'ASSISTANT_PROVIDER_TIMEOUT' });
    expect(textOf(events)).toBe('All good here.');
  });

  it('notices a stall after the headers with its own idle timer, then retries', async () => {
    // The retried stream must not pause that long either: 1 s leaves a busy machine room.
    script([{ type: 'stall_after_headers' }]);
    const provider = await fakeProvider(fake, name, { idleTimeoutMs: 1000 });
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)[0]).toMatchObject({ code: 'ASSISTANT_PROVIDER_IDLE_TIMEOUT' });
    expect(textOf(events)).toBe('All good here.');
    await expect.poll(() => fake.requests[0]?.clientClosedEarly).toBe(true);
  });

  it('retries a connection reset before the headers', async () => {
    script([{ type: 'reset_before_headers' }]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)).toEqual([expect.objectContaining({ code: 'ASSISTANT_PROVIDER_NETWORK' })]);
    expect(textOf(events)).toBe('All good here.');
  });

  it('retries cleanly when the stream is reset before any content was delivered', async () => {
    script([{ type: 'reset_mid_stream', afterEvents: 1 }]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)).toEqual([expect.objectContaining({ code: 'ASSISTANT_PROVIDER_NETWORK' })]);
    expect(textOf(events)).toBe('All good here.');
  });

  it('retries a reset after content was delivered, telling the caller to discard what it got', async () => {
    script([{ type: 'reset_mid_stream', afterEvents: name === 'anthropic' ? 4 : 3 }]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    const at = events.findIndex((e) => e.type === 'retry');
    expect(events[at]).toMatchObject({ code: 'ASSISTANT_PROVIDER_NETWORK', discard: true });
    expect(textOf(events.slice(0, at)).length).toBeGreaterThan(0);
    expect(textOf(events.slice(at))).toBe('All good here.');
    expect(fake.requests).toHaveLength(2);
  });

  it('treats a malformed event as a protocol error and retries when nothing was delivered', async () => {
    script([{ type: 'malformed_sse', afterEvents: 1 }]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)).toEqual([expect.objectContaining({ code: 'ASSISTANT_PROVIDER_PROTOCOL' })]);
    expect(textOf(events)).toBe('All good here.');
  });

  it('retries an overloaded error event sent mid-stream', async () => {
    script([{ type: 'error_event', afterEvents: 1 }]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    expect(retries(events)).toHaveLength(1);
    expect(retries(events)[0]).toMatchObject({ code: name === 'anthropic' ? 'ASSISTANT_PROVIDER_RATE_LIMITED' : 'ASSISTANT_PROVIDER_SERVER' });
    expect(textOf(events)).toBe('All good here.');
  });

  it('retries a reply whose tool input arrived cut off: the broken call never reaches the caller', async () => {
    script([{ type: 'truncate_tool_input' }], TOOL_REPLY);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('read it', { tools: [READ_TOOL] })));
    expect(retries(events)).toEqual([expect.objectContaining({ code: 'ASSISTANT_TOOL_INPUT_INVALID', discard: true })]);
    expect(events.filter((e) => e.type === 'tool_call_end')).toEqual([
      { type: 'tool_call_end', id: 'call_read', name: 'Read', input: { path: 'src/index.ts', offset: 10, limit: 200 } },
    ]);
    expect(stopOf(events).reason).toBe('tool_use');
    expect(fake.requests).toHaveLength(2);
  });

  it('with no retry left, delivers truncated tool input flagged so the call is not run', async () => {
    script([{ type: 'truncate_tool_input' }], TOOL_REPLY);
    const provider = await fakeProvider(fake, name, { retries: { attempts: 0 } });
    const events = await collect(provider.stream(ask('read it', { tools: [READ_TOOL] })));
    expect(retries(events)).toEqual([]);
    expect(events.find((e) => e.type === 'tool_call_end')).toMatchObject({ id: 'call_read', input: {}, inputError: expect.stringMatching(/not complete JSON|cut off/) });
    const stop = stopOf(events);
    expect(stop.reason).toBe('max_tokens');
    expect(stop.message.content.find((p) => p.type === 'tool_call')).toMatchObject({ input: {}, inputError: expect.any(String) });
  });

  it('completes a task through three faults in a row', async () => {
    script([{ status: 429, retryAfterMs: 10 }, { type: 'reset_mid_stream', afterEvents: 1 }, { status: 529 }], TOOL_REPLY);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('read it', { tools: [READ_TOOL] })));
    expect(retries(events).map((e) => (e as unknown as { code: string }).code)).toEqual([
      'ASSISTANT_PROVIDER_RATE_LIMITED',
      'ASSISTANT_PROVIDER_NETWORK',
      'ASSISTANT_PROVIDER_RATE_LIMITED',
    ]);
    expect(stopOf(events).message.content.find((p) => p.type === 'tool_call')).toMatchObject({ name: 'Read', input: { path: 'src/index.ts' } });
    expect(fake.requests).toHaveLength(4);
  });

  it('aborting mid-stream stops the HTTP request promptly', async () => {
    fake.setFixture({ turns: [{ reply: { text: 'x'.repeat(400), chunkSize: 4, eventDelayMs: 20 } }] });
    fake.requests.length = 0;
    const provider = await fakeProvider(fake, name);
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of provider.stream(ask('hi'), controller.signal)) {
        seen.push(event.type);
        if (event.type === 'text_delta' && seen.filter((t) => t === 'text_delta').length === 3) controller.abort();
      }
    })();
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PROVIDER_ABORTED' });
    // The caller got the error while the server was still streaming (100 chunks, 20 ms apart), and
    // the server saw the client leave before it had sent them all.
    expect(fake.requests[0]!.completed).toBe(false);
    await expect.poll(() => fake.requests[0]?.clientClosedEarly).toBe(true);
  });

  it('aborting during a retry wait stops at once', async () => {
    // retry-after 40 s is honoured (up to 60 s): a wait the abort did not cut would outlast the test's timeout.
    script([{ status: 429, retryAfterMs: 40_000 }]);
    const provider = await fakeProvider(fake, name);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error } = await streamError(provider.stream(ask('hi'), controller.signal));
    expect(error.code).toBe('ASSISTANT_PROVIDER_ABORTED');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a failed non-streamed call too', async () => {
    script([{ status: 500 }, { type: 'reset_before_headers' }]);
    const provider = await fakeProvider(fake, name);
    const response = await provider.complete(ask('hi'));
    expect(response.message.content).toEqual([{ type: 'text', text: 'All good here.' }]);
    expect(fake.requests.map((r) => r.status)).toEqual([500, undefined, 200]);
  });

  it('reports a connection refused (wrong base URL) as a network error naming the URL', async () => {
    const provider = await fakeProvider(fake, name, {
      baseURL: name === 'anthropic' ? 'http://127.0.0.1:9' : 'http://127.0.0.1:9/v1',
      retries: { attempts: 1, initialDelayMs: 5, jitter: 0 },
    });
    const { error } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_NETWORK');
    expect(error.message).toMatch(/127\.0\.0\.1:9.*(connection refused|failed)/);
  });
});
