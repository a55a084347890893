// An interrupt keeps exactly what was shown, even when the client had already read far ahead: on a
// busy machine (or a fast server) many stream events arrive in one read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKernel } from '../../dist/config/test-kit.js';
import { startFakeLlm, type FakeLlm } from './support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

describe.each(['anthropic', 'openai'] as const)('interrupting a burst of buffered events (%s)', (provider) => {
  it('keeps the deltas shown before the interrupt, and nothing the client had read past it', async () => {
    // One character per event, no pause between them: the client reads them many at a time.
    fake.setFixture({ turns: [{ reply: { text: 'abcdefghijklmnopqrstuvwxyz'.repeat(40), chunkSize: 1 } }] });
    fake.reset();
    const t = await createTestKernel({ model: fake, wire: provider });
    try {
      const runner = await t.runner();
      const shown: string[] = [];
      t.kernel.hooks.event.tap('test', (event) => {
        if (event.type !== 'model' || event.event.type !== 'text_delta') return;
        shown.push(event.event.text);
        if (shown.length === 3) runner.abort();
      });
      const result = await runner.run('recite the alphabet');
      expect(result.reason).toBe('aborted');
      expect(shown).toEqual(['a', 'b', 'c']);
      const last = runner.session.messages.at(-1)!;
      expect(last.content).toEqual([{ type: 'text', text: 'abc' }]);
    } finally {
      await t.close();
    }
  });
});
