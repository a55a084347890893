// The tests import the BUILT plugin (dist/), not src/: the tool names its worker module by a URL
// beside the plugin's own file, and a worker thread imports JavaScript. `npm test` builds first.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestKernel, resultText, type TestKernel } from '@assistant-cli/assistant/testing';
import wordCount from '../dist/index.js';
import { count } from '../dist/word-count.worker.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('count', () => {
  it('counts lines, words and characters (not UTF-16 units)', () => {
    expect(count('')).toEqual({ lines: 0, words: 0, characters: 0 });
    expect(count('one two\nthree')).toEqual({ lines: 2, words: 3, characters: 13 });
    expect(count('  héllo 👋 \n\n')).toEqual({ lines: 2, words: 2, characters: 12 });
  });
});

describe('WordCount tool', () => {
  it('counts a project file in the worker pool, without asking: it is a read inside the project', async () => {
    t = await createTestKernel({ plugins: [wordCount], files: { 'docs/notes.txt': 'one two\nthree\n' } });
    const result = await t.callTool('WordCount', { file_path: 'docs/notes.txt' });
    expect(resultText(result)).toBe('docs/notes.txt: 2 lines, 3 words, 14 characters');
    expect(result.metadata).toEqual({ lines: 2, words: 3, characters: 14 });
    expect(t.hooks.last('permission')!.result).toMatchObject({ behavior: 'allow' });
  });

  it('refuses a file over wordCount.maxBytes, and a path that is not a file, as results the model can act on', async () => {
    t = await createTestKernel({ plugins: [wordCount], config: { wordCount: { maxBytes: 10 } }, files: { 'big.txt': 'x'.repeat(11) } });
    const big = await t.callTool('WordCount', { file_path: 'big.txt' });
    expect(big.isError).toBe(true);
    expect(resultText(big)).toContain('big.txt is 11 bytes, more than wordCount.maxBytes (10); not counted.');
    const missing = await t.callTool('WordCount', { file_path: 'nowhere.txt' });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toContain('nowhere.txt is not a file');
  });

  it('rejects options that are not in its schema, naming the key', async () => {
    await expect(createTestKernel({ plugins: [wordCount], config: { wordCount: { maxBytes: 0 } } })).rejects.toThrow(/wordCount.*maxBytes|maxBytes.*>= 1/);
  });

  it('needs approval to read outside the project: headless, the call is denied before the worker runs', async () => {
    t = await createTestKernel({ plugins: [wordCount] });
    const result = await t.callTool('WordCount', { file_path: '/etc/hostname' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^Permission to run WordCount was denied: .*reads outside the project: \/etc\/hostname/);
    expect(t.hooks.last('permission')!.result).toMatchObject({ behavior: 'ask' });
  });

  it('is called by a scripted model, which reads the count', async () => {
    t = await createTestKernel({
      plugins: [wordCount],
      files: { 'notes.txt': 'four words in here\n' },
      model: {
        turns: [
          { when: { userText: 'How many words' }, reply: { toolCalls: [{ id: 'wc_1', name: 'WordCount', input: { file_path: 'notes.txt' } }] } },
          { when: { toolResultFor: 'wc_1', toolResultContains: 'notes.txt: 1 lines, 4 words, 19 characters' }, reply: { text: 'Four words.' } },
        ],
      },
    });
    expect((await t.prompt('How many words are in notes.txt?')).text).toBe('Four words.');
    expect(t.fake?.requests).toHaveLength(2);
  });
});
