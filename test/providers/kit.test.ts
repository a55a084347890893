// The provider-neutral helpers third-party provider authors reuse.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { ProviderError, type ProviderStreamEvent } from '../../dist/core/index.js';
import {
  DEFAULT_RETRY_POLICY,
  ReplyBuilder,
  createResponseCache,
  estimateTextTokens,
  parseRetryAfter,
  parseToolInput,
  resilientStream,
  retryDelay,
  withIdleTimeout,
} from '../../dist/core/kits/provider/index.js';
import { ask } from './helpers.js';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('retry policy', () => {
  it('backs off 1 s, 2 s, 4 s, 8 s, then caps at 10 s', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, jitter: 0 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(policy, n))).toEqual([1000, 2000, 4000, 8000, 10_000]);
    expect(DEFAULT_RETRY_POLICY.attempts).toBe(5);
  });

  it('takes jitter off the delay, never adds to it', () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, undefined, () => 0.999)).toBe(800);
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, undefined, () => 0)).toBe(1000);
  });

  it('uses the server\'s retry-after instead, unless it is longer than allowed', () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, 30_000)).toBe(30_000);
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, 61_000)).toBeUndefined();
  });

  it('reads retry-after-ms, retry-after in seconds, and retry-after as an HTTP date', () => {
    expect(parseRetryAfter(headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': '3' }))).toBe(3000);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });
});

describe('tool input checks', () => {
  it('accepts complete JSON objects and empty input', () => {
    expect(parseToolInput('{"path":"a.ts","n":[1,2]}')).toEqual({ input: { path: 'a.ts', n: [1, 2] } });
    expect(parseToolInput('')).toEqual({ input: {} });
  });

  it('flags cut-off JSON, non-objects, and input known to be cut off', () => {
    expect(parseToolInput('{"path":"a.t')).toMatchObject({ input: {}, error: expect.stringMatching(/not complete JSON.*12 characters received/) });
    expect(parseToolInput('[1,2]')).toMatchObject({ error: 'the tool input must be a JSON object, got an array' });
    expect(parseToolInput('{"a":1}', true)).toMatchObject({ input: {}, error: expect.stringMatching(/cut off/) });
  });

  it('the reply builder closes calls still open at the end as cut off', () => {
    const reply = new ReplyBuilder('m');
    reply.toolStart('c1', 'Read');
    reply.toolDelta('c1', '{"path":"a"}');
    const [end, usage, stop] = reply.finish('max_tokens');
    expect(end).toMatchObject({ type: 'tool_call_end', id: 'c1', inputError: expect.stringMatching(/cut off/) });
    expect(usage!.type).toBe('usage');
    expect(stop).toMatchObject({ type: 'stop', reason: 'max_tokens', message: { content: [{ type: 'tool_call', id: 'c1', inputError: expect.any(String) }] } });
  });
});

describe('response cache', () => {
  const reply: ProviderStreamEvent[] = [
    { type: 'text_delta', text: 'hi' },
    { type: 'stop', reason: 'end_turn', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
  ];

  it('keys on what reaches the wire: not message metadata or cache hints, but model and content', () => {
    const cache = createResponseCache({ max: 10, ttlMs: 60_000 });
    const a = ask('q');
    const withMeta = { ...a, messages: a.messages.map((m) => ({ ...m, meta: { time: 123 } })), cache: { system: true, messages: [0] } };
    expect(cache.keyFor('p', withMeta)).toBe(cache.keyFor('p', a));
    expect(cache.keyFor('p', { ...a, model: 'other' })).not.toBe(cache.keyFor('p', a));
    expect(cache.keyFor('p', ask('q2'))).not.toBe(cache.keyFor('p', a));
    expect(cache.keyFor('other-endpoint', a)).not.toBe(cache.keyFor('p', a));
  });

  it('stores only complete replies without cut-off tool input, and expires entries', async () => {
    const cache = createResponseCache({ max: 10, ttlMs: 50 });
    cache.set('partial', reply.slice(0, 1));
    cache.set('cut', [{ type: 'tool_call_end', id: 'c', name: 'X', input: {}, inputError: 'cut off' }, reply[1]!]);
    cache.set('good', reply);
    expect([cache.get('partial'), cache.get('cut')]).toEqual([undefined, undefined]);
    expect(cache.get('good')).toEqual(reply);
    await new Promise((r) => setTimeout(r, 80));
    expect(cache.get('good')).toBeUndefined();
  });
});

describe('resilient streams', () => {
  async function* slowAfterFirst(): AsyncGenerator<number> {
    yield 1;
    await new Promise((r) => setTimeout(r, 10_000));
    yield 2;
  }

  it('the idle timer fails a stalled stream and aborts it, timing only the wait', async () => {
    let aborted = false;
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const n of withIdleTimeout(slowAfterFirst(), 50, () => (aborted = true))) {
          seen.push(n);
          await new Promise((r) => setTimeout(r, 80)); // slow consumer: not counted as idle
        }
      })(),
    ).rejects.toMatchObject({ code: 'ASSISTANT_PROVIDER_IDLE_TIMEOUT', retryable: true });
    // Item 2 would arrive after 10 s: the timer failed the stream before it, the slow consumer notwithstanding.
    expect(seen).toEqual([1]);
    expect(aborted).toBe(true);
  });

  it('does not retry errors that are not retryable', async () => {
    let opened = 0;
    const stream = resilientStream({
      policy: { ...DEFAULT_RETRY_POLICY, initialDelayMs: 1 },
      idleTimeoutMs: 1000,
      classify: (e) => e as ProviderError,
      open: async () => {
        opened++;
        throw new ProviderError('ASSISTANT_PROVIDER_AUTH', 'bad key');
      },
    });
    await expect(stream.next()).rejects.toMatchObject({ code: 'ASSISTANT_PROVIDER_AUTH' });
    expect(opened).toBe(1);
  });
});

describe('token estimate', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  function sources(dir: string, out: string[] = []): string[] {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) sources(path, out);
      else if (name.endsWith('.ts')) out.push(readFileSync(path, 'utf8'));
    }
    return out;
  }

  it('stays within the documented band of a real tokenizer on this repository\'s code', () => {
    let real = 0;
    let estimate = 0;
    for (const text of sources(join(root, 'core')).concat(sources(join(root, 'plugins')))) {
      real += o200k(text, { disallowedSpecial: new Set() });
      estimate += estimateTextTokens(text);
    }
    const ratio = estimate / real;
    expect(ratio).toBeGreaterThan(1.0);
    expect(ratio).toBeLessThan(1.3);
  });

  it('counts non-ASCII text per character and surrogate pairs once', () => {
    expect(estimateTextTokens('日本語')).toBe(3);
    expect(estimateTextTokens('😀😀')).toBe(2);
    expect(estimateTextTokens('')).toBe(0);
  });
});
