import { afterEach, describe, expect, it } from 'vitest';
import type { Message, ToolResultPart } from '@assistant-cli/assistant';
import { createTestKernel, type TestKernel } from '@assistant-cli/assistant/testing';
import recentToolResults from '../src/index.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A history of `n` Read calls, each answered with a long result; the third one failed. */
function history(n: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Summarize the files.' }] }];
  for (let i = 1; i <= n; i++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_call', id: `read_${i}`, name: 'Read', input: { file_path: `src/file${i}.ts` } }] });
    messages.push({
      role: 'tool',
      content: [{ type: 'tool_result', toolCallId: `read_${i}`, content: [{ type: 'text', text: `contents of file ${i}\n${'line\n'.repeat(100)}` }], ...(i === 3 ? { isError: true } : {}) }],
    });
  }
  return messages;
}

const results = (messages: Message[]): ToolResultPart[] => messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
const textOf = (result: ToolResultPart) => result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

const withStrategy = (options: Record<string, unknown> = {}) =>
  createTestKernel({ plugins: [recentToolResults], config: { context: { strategy: 'recent-tool-results', recentToolResults: options } } });

describe('recent-tool-results strategy', () => {
  it('sends the newest results verbatim and older ones as a note naming the call, its size and how it began', async () => {
    t = await withStrategy({ keep: 2, previewChars: 16 });
    const messages = history(5);
    const view = await t.contextView(messages);
    const sent = results(view.messages);
    expect(sent.map((r) => r.toolCallId)).toEqual(['read_1', 'read_2', 'read_3', 'read_4', 'read_5']);
    expect(sent.slice(3)).toEqual(results(messages).slice(3));
    expect(textOf(sent[0]!)).toBe(
      '[Older tool result elided to save context: Read({"file_path":"src/file1.ts"}) returned 519 characters. It began:\ncontents of file\n…] Call the tool again if you need the whole output.',
    );
    expect(sent[2]).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('failed with 519 characters') }] });
    // Everything but the results is sent as it is, and the history itself is left alone.
    expect(view.messages.filter((m) => m.role !== 'tool')).toEqual(messages.filter((m) => m.role !== 'tool'));
    expect(results(messages).every((r) => textOf(r).startsWith('contents of file'))).toBe(true);
    expect(t.hooks.events).toContainEqual(expect.objectContaining({ type: 'notice', message: expect.stringContaining('only the newest 2 tool results') }));
  });

  it('keeps an elided note byte-identical as the conversation grows, so the earlier prefix stays cacheable', async () => {
    t = await withStrategy({ keep: 1 });
    const before = await t.contextView(history(3));
    const after = await t.contextView(history(4));
    expect(after.messages.slice(0, 5)).toEqual(before.messages.slice(0, 5));
    expect(textOf(results(after.messages)[2]!)).toContain('[Older tool result elided');
  });

  it('does nothing unless context.strategy selects it', async () => {
    t = await createTestKernel({ plugins: [[recentToolResults, { keep: 0 }]], config: { context: { strategy: 'static' } } });
    const messages = history(3);
    expect((await t.contextView(messages)).messages).toEqual(messages);
    // Offered under its name, but not the strategy that runs.
    expect(t.kernel.hooks.contextStrategy.get('recent-tool-results')?.isUsed()).toBe(true);
  });

  it('shapes what the model receives in the agent loop, while the session keeps every result', async () => {
    const read = (n: number) => ({ toolCalls: [{ id: `read_${n}`, name: 'Read', input: { file_path: `notes${n}.txt` } }] });
    t = await createTestKernel({
      plugins: [recentToolResults],
      files: { 'notes1.txt': 'first note\n', 'notes2.txt': 'second note\n', 'notes3.txt': 'third note\n' },
      config: { context: { strategy: 'recent-tool-results', recentToolResults: { keep: 1, previewChars: 0 } } },
      model: {
        turns: [
          { when: { userText: 'notes' }, reply: read(1) },
          { when: { toolResultFor: 'read_1' }, reply: read(2) },
          { when: { toolResultFor: 'read_2' }, reply: read(3) },
          { when: { toolResultFor: 'read_3' }, reply: { text: 'Read all three.' } },
        ],
      },
    });
    expect((await t.prompt('Read the notes one by one.')).text).toBe('Read all three.');
    const last = JSON.stringify(t.fake!.requests[3]!.body.messages);
    expect(last).toContain('third note');
    expect(last).not.toContain('first note');
    expect(last).toContain('Read({\\"file_path\\":\\"notes1.txt\\"})');
    const stored = JSON.stringify((await t.session()).messages);
    expect(stored).toContain('first note');
  });

  it('refuses invalid options', async () => {
    await expect(withStrategy({ keep: -1 })).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_OPTIONS_INVALID', message: expect.stringContaining('/context/recentToolResults/keep') });
  });
});
