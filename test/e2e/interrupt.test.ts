// Interrupts: aborting a prompt mid-stream or mid-tool keeps the partial output and leaves the
// session consistent (every tool call has its result), so the next prompt works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunner } from '../../dist/core/kits/agent/index.js';
import { createTestKernel } from '../../dist/config/test-kit.js';
import { startFakeLlm, type FakeLlm } from './support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

/** A kernel in a temp project talking to the fake server, with its runner. */
async function setup() {
  const t = await createTestKernel({ model: fake, config: { permissions: { allow: ['Bash(sleep:*)'] } } });
  return { t, kernel: t.kernel, runner: await t.runner() };
}

/** Every tool call in the history has a result right after it. */
function consistent(runner: AgentRunner): boolean {
  const messages = runner.session.messages;
  return messages.every((m, i) => {
    if (m.role !== 'assistant') return true;
    const calls = m.content.filter((p) => p.type === 'tool_call').map((p) => (p as { id: string }).id);
    if (!calls.length) return true;
    const next = messages[i + 1];
    return next?.role === 'tool' && calls.every((id) => next.content.some((r) => r.toolCallId === id));
  });
}

describe('interrupting a prompt', () => {
  it('mid-stream: keeps the text streamed so far, and the next prompt works', async () => {
    fake.setFixture({
      turns: [
        { name: 'long', when: { userText: 'tell me a long story' }, reply: { text: 'Once upon a time there was a very long story that went on and on and on.', chunkSize: 4, eventDelayMs: 40 } },
        { name: 'next', when: { userText: 'shorter please' }, reply: { text: 'The end.' } },
      ],
    });
    const { t, kernel, runner } = await setup();
    try {
      let deltas = 0;
      kernel.hooks.event.tap('test', (event) => {
        if (event.type === 'model' && event.event.type === 'text_delta' && ++deltas === 3) runner.abort();
      });
      const result = await runner.run('tell me a long story');
      expect(result.reason).toBe('aborted');
      const last = runner.session.messages.at(-1)!;
      expect(last.role).toBe('assistant');
      const kept = last.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
      // The stream stopped at the interrupt: exactly the three deltas shown before it, however many
      // more the client had already buffered (a busy machine reads several at once).
      expect(kept).toBe('Once upon a ');
      expect((await runner.run('shorter please')).text).toBe('The end.');
    } finally {
      await t.close();
    }
  });

  it('mid-tool: kills the running command, records a result for it, and the next prompt works', async () => {
    fake.setFixture({
      turns: [
        // Longer than the test's timeout: only a killed command lets the run end in time.
        { name: 'slow', when: { userText: 'wait a long time' }, reply: { toolCalls: [{ id: 'sl', name: 'Bash', input: { command: 'sleep 120' } }] } },
        { name: 'after', when: { userText: 'never mind' }, reply: { text: 'OK.' } },
      ],
    });
    const { t, kernel, runner } = await setup();
    try {
      kernel.hooks.event.tap('test', (event) => {
        if (event.type === 'tool_start') setTimeout(() => runner.abort(), 300);
      });
      const result = await runner.run('wait a long time');
      expect(result.reason).toBe('aborted');
      expect(consistent(runner)).toBe(true);
      const toolMessage = runner.session.messages.find((m) => m.role === 'tool')!;
      expect(toolMessage.content[0]).toMatchObject({ toolCallId: 'sl', isError: true });
      expect((await runner.run('never mind')).text).toBe('OK.');
      expect(consistent(runner)).toBe(true);
    } finally {
      await t.close();
    }
  });
});
