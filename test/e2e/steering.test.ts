// Steering: a message typed while the agent works is injected before the next model call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKernel } from '../../dist/config/test-kit.js';
import { requestText, startFakeLlm, type FakeLlm } from './support.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

describe('steering', () => {
  it('injects a message sent while a tool runs into the next request, and the model acts on it', async () => {
    fake.setFixture({
      turns: [
        { name: 'migrate', when: { userText: 'migrate the users table' }, reply: { text: 'Running the migration check.', toolCalls: [{ id: 's1', name: 'Bash', input: { command: 'sleep 1' } }] } },
        { name: 'steered', when: { contains: "don't touch the database layer" }, reply: { text: 'Understood: leaving the database layer alone.' } },
      ],
      fallback: { text: 'NOT STEERED' },
    });
    const t = await createTestKernel({ model: fake, config: { permissions: { allow: ['Bash(sleep:*)'] } } });
    const { kernel } = t;
    const runner = await t.runner();
    const session = runner.session;
    try {
      kernel.hooks.event.tap('test', (event) => {
        if (event.type === 'tool_start') runner.steer("actually, don't touch the database layer");
      });
      const result = await runner.run('migrate the users table');
      expect(result).toMatchObject({ reason: 'completed', text: 'Understood: leaving the database layer alone.', turns: 2 });
      expect(fake.requests.map((r) => r.turn)).toEqual(['migrate', 'steered']);
      expect(requestText(fake.requests[0]!)).not.toContain('database layer');
      const steered = session.messages.find((m) => m.meta?.origin === 'steering');
      expect(steered?.content).toEqual([{ type: 'text', text: "actually, don't touch the database layer" }]);
      // It sits after the tool result, before the model's next reply.
      const i = session.messages.indexOf(steered!);
      expect(session.messages[i - 1]!.role).toBe('tool');
      expect(session.messages[i + 1]!.role).toBe('assistant');
    } finally {
      await t.close();
    }
  });
});
