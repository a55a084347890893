// A reply that breaks off after part of it was streamed is asked again, through the real SDK clients
// of both providers against the fake server; the caller is told to drop what it got of the broken one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProviderStreamEvent } from '../../dist/core/index.js';
import type { FaultSpec } from '../../dist/core/testing/index.js';
import { ask, collect, fakeProvider, startFakeLlm, stopOf, streamError, textOf, type FakeLlm, type ProviderName } from './helpers.js';

const ANSWER = 'All good here, nothing to fix in this file.';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: {} });
});
afterAll(() => fake.close());

function script(faults: FaultSpec[]) {
  fake.setFixture({ turns: [{ faults, reply: { text: ANSWER } }] });
  fake.requests.length = 0;
}

/** What a consumer keeps: events after the last retry that discards. */
function kept(events: ProviderStreamEvent[]): ProviderStreamEvent[] {
  const last = events.map((e) => e.type === 'retry' && e.discard === true).lastIndexOf(true);
  return events.slice(last + 1);
}

describe.each<ProviderName>(['anthropic', 'openai'])('%s', (name) => {
  // Past the first text delta on both wire formats (Anthropic opens with message_start and a block start).
  const afterContent = name === 'anthropic' ? 4 : 3;

  it.each<[string, FaultSpec, string, Record<string, unknown>]>([
    ['a reset', { type: 'reset_mid_stream', afterEvents: afterContent }, 'ASSISTANT_PROVIDER_NETWORK', {}],
    ['a malformed event', { type: 'malformed_sse', afterEvents: afterContent }, 'ASSISTANT_PROVIDER_PROTOCOL', {}],
    ['a stall caught by the idle timer', { type: 'stall_after_headers', afterEvents: afterContent }, 'ASSISTANT_PROVIDER_IDLE_TIMEOUT', { idleTimeoutMs: 1000 }],
    ['an error event', { type: 'error_event', afterEvents: afterContent, errorType: name === 'anthropic' ? 'api_error' : 'server_error' }, 'ASSISTANT_PROVIDER_SERVER', {}],
  ])('retries a reply cut by %s after text was streamed', async (_, fault, code, extra) => {
    script([fault]);
    const provider = await fakeProvider(fake, name, extra);
    const events = await collect(provider.stream(ask('hi')));
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ code, discard: true, attempt: 1 });
    const before = events.slice(0, events.indexOf(retry!));
    expect(textOf(before).length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(textOf(before))).toBe(true);
    expect(textOf(kept(events))).toBe(ANSWER);
    expect(stopOf(events).message.content).toEqual([{ type: 'text', text: ANSWER }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('recovers from several broken replies in a row within the retry budget', async () => {
    script([
      { type: 'reset_mid_stream', afterEvents: afterContent },
      { type: 'malformed_sse', afterEvents: afterContent },
      { type: 'error_event', afterEvents: afterContent },
    ]);
    const provider = await fakeProvider(fake, name);
    const events = await collect(provider.stream(ask('hi')));
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { discard?: boolean }).discard)).toEqual([true, true, true]);
    expect(textOf(kept(events))).toBe(ANSWER);
  });

  it('reports a cut stream when the retries run out after text was streamed', async () => {
    script([
      { type: 'reset_mid_stream', afterEvents: afterContent },
      { type: 'reset_mid_stream', afterEvents: afterContent },
    ]);
    const provider = await fakeProvider(fake, name, { retries: { attempts: 1, initialDelayMs: 5, jitter: 0 } });
    const { error, events } = await streamError(provider.stream(ask('hi')));
    expect(error.code).toBe('ASSISTANT_PROVIDER_STREAM_CUT');
    expect(error.message).toMatch(/broke off after \d+ streamed events? and could not be retried: .*gave up after 2 tries/);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
  });

  it('never caches the discarded part of a reply', async () => {
    script([{ type: 'reset_mid_stream', afterEvents: afterContent }]);
    const provider = await fakeProvider(fake, name, { responseCache: { max: 10, ttlMs: 60_000 } });
    await collect(provider.stream(ask('hi')));
    const replayed = await collect(provider.stream(ask('hi')));
    expect(fake.requests).toHaveLength(2);
    expect(replayed.some((e) => e.type === 'retry')).toBe(false);
    expect(textOf(replayed)).toBe(ANSWER);
  });
});

describe('anthropic: a reply reset after its tool calls ended but before it did', () => {
  it('discards the calls already announced; the stop event carries each call once, from the retried reply', async () => {
    const calls = [
      { id: 'call_a', name: 'Read', input: { path: 'a.ts' } },
      { id: 'call_b', name: 'Read', input: { path: 'b.ts' } },
    ];
    // message_start, then start, one delta and stop per call: the cut falls after both calls ended.
    fake.setFixture({ turns: [{ faults: [{ type: 'reset_mid_stream', afterEvents: 7 }], reply: { toolCalls: calls, chunkSize: 100 } }] });
    fake.requests.length = 0;
    const provider = await fakeProvider(fake, 'anthropic');
    const events = await collect(provider.stream(ask('read both')));
    const retry = events.findIndex((e) => e.type === 'retry');
    expect(events[retry]).toMatchObject({ discard: true });
    expect(events.slice(0, retry).filter((e) => e.type === 'tool_call_end')).toHaveLength(2);
    expect(kept(events).filter((e) => e.type === 'tool_call_end')).toHaveLength(2);
    const stop = stopOf(events);
    expect(stop.message.content).toEqual(calls.map((c) => ({ type: 'tool_call', ...c })));
  });
});
