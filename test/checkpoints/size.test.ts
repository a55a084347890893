// Checkpoints are stored compactly: a 1 MB file changed by 50 prompts costs about one copy plus the
// chunks each change touched, not 50 copies. The writes come from a third-party tool that only
// declares its path (no built-in knows it), through the real tool pipeline and the JSONL store.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin, textResult, type Kernel } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';
import { rewind } from '../../dist/plugins/checkpoints/rewind.js';

/** A tool from "another package": rewrites line `line` of a file, declaring the file as its write. */
const pokePlugin = definePlugin({
  name: 'poke-tool',
  apply(kernel: Kernel) {
    kernel.tools.register<{ path: string; line: number; text: string }>({
      name: 'Poke',
      description: 'Replaces one line of a file.',
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, line: { type: 'number' }, text: { type: 'string' } }, required: ['path', 'line', 'text'] },
      access: (input) => ({ reads: [input.path], writes: [input.path] }),
      risk: { category: 'edit' },
      async handler(input, context) {
        const { writeFileSync } = await import('node:fs');
        const file = join(context.projectRoot, input.path);
        const lines = readFileSync(file, 'utf8').split('\n');
        lines[input.line] = input.text;
        writeFileSync(file, lines.join('\n'));
        return textResult(`poked line ${input.line}`);
      },
    });
  },
});

/** About 1 MB of source-like text that compresses no better than real code: pseudo-random words. */
function bigFile(): string {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const lines: string[] = [];
  let size = 0;
  while (size < 1024 * 1024) {
    const words = Array.from({ length: 8 }, () => next().toString(36)).join(' ');
    const line = `  const v${lines.length} = compute("${words}"); // ${next().toString(16)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

function checkpointBytes(dataDir: string): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.checkpoint(s|-blobs)\.jsonl$/.test(entry.name)) total += statSync(path).size;
    }
  };
  walk(dataDir);
  return total;
}

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('checkpoint storage', () => {
  it('keeps a 1 MB file changed by 50 prompts in well under 3 MB, and restores any version byte for byte', async () => {
    const original = bigFile();
    t = await createTestKernel({ plugins: [pokePlugin], config: { persistence: { store: 'jsonl' } }, files: { 'big.js': original }, mode: 'acceptEdits' });
    const session = await t.session();
    const versions: string[] = [];
    for (let i = 1; i <= 50; i++) {
      versions.push(t.read('big.js'));
      await session.record({ type: 'message', message: { role: 'user', content: [{ type: 'text', text: `change ${i}` }], meta: { time: Date.now(), origin: 'user' } } });
      const [result] = await t.callTools([{ name: 'Poke', input: { path: 'big.js', line: i * 331, text: `  // changed by prompt ${i}` } }]);
      expect(result!.isError).toBeFalsy();
      await session.record({ type: 'checkpoint', reason: 'turn_end' });
    }
    expect(t.read('big.js')).not.toBe(original);

    const bytes = checkpointBytes(process.env.ASSISTANT_DATA_DIR!);
    expect(bytes).toBeGreaterThan(100 * 1024); // it really stored the content
    expect(bytes).toBeLessThan(3 * 1024 * 1024);

    const store = t.kernel.store();
    const target = { store, sessionId: session.info.id, projectRoot: t.projectRoot, record: (e: Parameters<typeof session.record>[0]) => session.record(e) };
    await rewind(target, { prompt: 30, code: true, conversation: false, force: false });
    expect(t.read('big.js')).toBe(versions[29]);
    await rewind(target, { prompt: 1, code: true, conversation: false, force: false });
    expect(t.read('big.js')).toBe(original);
  }, 180_000);
});
