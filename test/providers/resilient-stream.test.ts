// resilientStream, the kit piece every provider plugin streams through, fed by a plain generator the
// way a third-party adapter would feed it: what a broken attempt is, and what the caller is told.
import { describe, expect, it } from 'vitest';
import { ProviderError, type ProviderStreamEvent } from '../../dist/core/index.js';
import { ReplyBuilder, resilientStream } from '../../dist/core/kits/provider/index.js';

const POLICY = { attempts: 2, initialDelayMs: 1, factor: 1, maxDelayMs: 1, maxRetryAfterMs: 1000, jitter: 0 };

/** A reply with text and one tool call whose raw JSON is `json`, ending with `stop` unless told not to. */
function* reply(text: string, json: string, options: { stop?: boolean } = {}): Generator<ProviderStreamEvent> {
  const builder = new ReplyBuilder('m');
  yield builder.text(text);
  yield builder.toolStart('call_1', 'Edit');
  yield builder.toolDelta('call_1', json)!;
  yield builder.toolEnd('call_1')!;
  if (options.stop !== false) yield* builder.finish('tool_use');
}

/** Streams through resilientStream with each attempt answered by the next of `attempts`. */
async function run(attempts: Array<() => Iterable<ProviderStreamEvent>>, policy = POLICY): Promise<{ events: ProviderStreamEvent[]; error?: ProviderError }> {
  let n = 0;
  const events: ProviderStreamEvent[] = [];
  const stream = resilientStream({
    policy,
    idleTimeoutMs: 60_000,
    classify: (error) => (error instanceof ProviderError ? error : new ProviderError('ASSISTANT_PROVIDER_NETWORK', String(error), { retryable: true })),
    open: async () => {
      const next = attempts[n++];
      if (!next) throw new Error('no attempt left in the test script');
      return (async function* () {
        yield* next();
      })();
    },
  });
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error: error as ProviderError };
  }
}

const GOOD = '{"file_path":"a.js","old_string":"a","new_string":"b"}';
const ends = (events: ProviderStreamEvent[]) => events.filter((e) => e.type === 'tool_call_end');

describe('resilientStream: broken attempts', () => {
  it('a tool call with broken JSON is never delivered while a retry is left; the retry discards the attempt', async () => {
    const { events, error } = await run([() => reply('Editing.', GOOD.slice(0, -1)), () => reply('Editing.', GOOD)]);
    expect(error).toBeUndefined();
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ code: 'ASSISTANT_TOOL_INPUT_INVALID', discard: true });
    expect(ends(events)).toEqual([{ type: 'tool_call_end', id: 'call_1', name: 'Edit', input: { file_path: 'a.js', old_string: 'a', new_string: 'b' } }]);
  });

  it.each([
    ['an array', '[1]'],
    ['a string', '"rm -rf /"'],
    ['two objects', '{"a":1}{"b":2}'],
  ])('input that parses to %s counts as broken too', async (_, json) => {
    const { events } = await run([() => reply('x', json), () => reply('x', GOOD)]);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(ends(events).every((e) => e.type === 'tool_call_end' && !e.inputError)).toBe(true);
  });

  it('with no retry left, the broken call is delivered flagged, so it cannot run', async () => {
    const broken = () => reply('x', GOOD.slice(0, 20));
    const { events, error } = await run([broken, broken, broken]);
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    const delivered = ends(events);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ input: {}, inputError: expect.any(String) });
    const stop = events.at(-1)!;
    expect(stop.type === 'stop' && stop.message.content.find((p) => p.type === 'tool_call')).toMatchObject({ input: {}, inputError: expect.any(String) });
  });

  it('a stream that ends without a stop event is a broken reply, retried and discarded', async () => {
    const { events, error } = await run([() => reply('Half', GOOD, { stop: false }), () => reply('Whole', GOOD)]);
    expect(error).toBeUndefined();
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ code: 'ASSISTANT_PROVIDER_PROTOCOL', discard: true });
    expect(events.at(-1)).toMatchObject({ type: 'stop', reason: 'tool_use' });
  });

  it('a failure after content with no retry left is a cut stream that keeps the reason', async () => {
    const cut = () =>
      (function* () {
        yield { type: 'text_delta', text: 'Hal' } as ProviderStreamEvent;
        throw new ProviderError('ASSISTANT_PROVIDER_NETWORK', 'socket hang up', { retryable: true });
      })();
    const { events, error } = await run([cut, cut, cut]);
    expect(error?.code).toBe('ASSISTANT_PROVIDER_STREAM_CUT');
    expect(error?.message).toMatch(/broke off after 1 streamed event and could not be retried: socket hang up \(gave up after 3 tries/);
    expect(events.filter((e) => e.type === 'retry').map((e) => e.type === 'retry' && e.discard)).toEqual([true, true]);
  });

  it('a failure that is not retryable is reported at once, as a cut stream when content was shown', async () => {
    const refused = () =>
      (function* () {
        yield { type: 'text_delta', text: 'Hal' } as ProviderStreamEvent;
        throw new ProviderError('ASSISTANT_PROVIDER_BAD_REQUEST', 'refused');
      })();
    const { events, error } = await run([refused]);
    expect(error?.code).toBe('ASSISTANT_PROVIDER_STREAM_CUT');
    expect(events.some((e) => e.type === 'retry')).toBe(false);
  });
});
