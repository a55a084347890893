// The terminal transcript when a reply breaks off and is asked again: the partial text stays in the
// scrollback (it cannot be taken back), marked as discarded, and the retried reply follows it.
import { describe, expect, it } from 'vitest';
import type { OriginEvent } from '../../dist/core/index.js';
import { Transcript } from '../../dist/plugins/ui-terminal/transcript.js';
import { createStyle } from '../../dist/plugins/ui-terminal/terminal/style.js';

function transcript() {
  const committed: string[] = [];
  const t = new Transcript(createStyle(false), { commit: (l) => committed.push(...l), schedule: () => undefined, width: 160 }, () => undefined);
  return { t, committed };
}

const model = (event: Extract<OriginEvent, { type: 'model' }>['event']): OriginEvent => ({ type: 'model', event });

describe('transcript: a reply that broke off', () => {
  it('marks the partial text as discarded, then streams the retried reply', () => {
    const { t, committed } = transcript();
    t.handle(model({ type: 'text_delta', text: 'The answer is forty' }));
    t.handle(model({ type: 'retry', attempt: 1, delayMs: 1000, reason: 'connection reset', code: 'ASSISTANT_PROVIDER_NETWORK', discard: true }));
    t.handle(model({ type: 'text_delta', text: 'The answer is 42.\n' }));
    expect(committed).toEqual([
      'The answer is forty',
      '⚠ the reply broke off (connection reset): the partial reply above is discarded; retrying in 1.0s (attempt 1)',
      'The answer is 42.',
    ]);
    expect(t.live().join('\n')).not.toMatch(/forty/);
  });

  it('a retry before anything was streamed says the request failed, with nothing to discard', () => {
    const { t, committed } = transcript();
    t.handle(model({ type: 'retry', attempt: 2, delayMs: 2000, reason: 'overloaded (529)', code: 'ASSISTANT_PROVIDER_RATE_LIMITED', discard: false }));
    expect(committed).toEqual(['⚠ the model request failed (overloaded (529)); retrying in 2.0s (attempt 2)']);
  });

  it('a broken tool call being composed is dropped from the live area', () => {
    const { t, committed } = transcript();
    t.begin();
    t.handle(model({ type: 'tool_call_start', id: 'c1', name: 'Edit' }));
    expect(t.live().join('\n')).toMatch(/Preparing Edit/);
    t.handle(model({ type: 'retry', attempt: 1, delayMs: 500, reason: 'malformed event', code: 'ASSISTANT_TOOL_INPUT_INVALID', discard: true }));
    expect(t.live().join('\n')).not.toMatch(/Preparing Edit/);
    expect(committed.at(-1)).toMatch(/^⚠ the reply broke off \(malformed event\): its partial reply is discarded; retrying in 0\.5s/);
  });
});
