import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { gitProject, runHeadless, startFakeLlm, type FakeLlm } from './support.js';

const fixture = fileURLToPath(new URL('../fake-llm/fixtures/two-turn-tool-task.json', import.meta.url));
let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture });
});
afterAll(() => fake.close());

describe.each(['anthropic', 'openai'] as const)('assistant -p --provider %s', (provider) => {
  it('completes a two-turn tool-using task with only the base URL pointed at the server', async () => {
    fake.setFixture(fixture);
    fake.reset();
    const dir = gitProject({ 'notes.txt': 'remember the milk\n' });
    const r = await runHeadless(fake, dir, ['What does notes.txt say?'], { provider });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('notes.txt says: remember the milk.\n');
    expect(fake.requests).toHaveLength(2);
    // The Read tool really ran: its result (the file, line-numbered) went back to the model.
    const second = JSON.stringify(fake.requests[1]!.body);
    expect(second).toMatch(/remember the milk/);
    expect(fake.requests.every((q) => q.path.includes(provider === 'anthropic' ? '/v1/messages' : '/v1/chat/completions'))).toBe(true);
  });
});
