// A tool call whose input is too large to keep (a 17 MiB Write) is refused before it runs and is not
// stored: the session stays small and can be continued.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/project.js';
import { gitProject, runHeadless, sharedFakeLlm } from './support.js';

const fake = sharedFakeLlm();

function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesBelow(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('an oversized tool input', () => {
  it('is refused, kept out of the session, and the session continues', async () => {
    const huge = 'x'.repeat(17 * 1024 * 1024);
    fake.script({
      turns: [
        { name: 'big', when: { userText: 'write the data' }, reply: { toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'big.txt', content: huge } }] } },
        { name: 'refused', when: { toolResultFor: 'w1', toolResultContains: 'over the' }, reply: { text: 'The write was too large.' } },
        { name: 'again', when: { userText: 'and now?' }, reply: { text: 'Still here.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const dir = gitProject({ 'README.md': '# x\n' });
    const data = tempDir('assistant-data-');
    const env = { ASSISTANT_DATA_DIR: data };
    const first = await runHeadless(fake.server, dir, ['write the data', '--permission-mode', 'bypass'], { env });
    expect(first.stdout.trim()).toBe('The write was too large.');
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, 'big.txt'))).toBe(false);
    const stored = filesBelow(data).filter((f) => f.endsWith('.jsonl'));
    expect(stored.length).toBeGreaterThan(0);
    for (const file of stored) expect(statSync(file).size).toBeLessThan(1024 * 1024);

    const next = await runHeadless(fake.server, dir, ['and now?', '--continue'], { env });
    expect(next.stdout.trim()).toBe('Still here.');
    expect(next.code).toBe(0);
  });
});
