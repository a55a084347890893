// The shipped fixtures drive the scripted tasks later end-to-end tests use, through both providers.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message, ProviderRequest, ToolCallPart } from '../../dist/core/index.js';
import { collect, fakeProvider, startFakeLlm, stopOf, type FakeLlm, type ProviderName } from '../providers/helpers.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}.json`, import.meta.url));
const TOOLS = [
  { name: 'Read', description: 'Read a file', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  { name: 'Write', description: 'Write a file', inputSchema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } } },
];

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: fixture('two-turn-tool-task') });
});
afterAll(() => fake.close());

/** A minimal stand-in for the agent loop: stream, answer each tool call (an error for cut-off input), repeat. */
async function runTask(name: ProviderName, prompt: string, options: Record<string, unknown> = {}): Promise<{ answer: string; toolCalls: ToolCallPart[] }> {
  const provider = await fakeProvider(fake, name, options);
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: prompt }] }];
  const toolCalls: ToolCallPart[] = [];
  for (let turn = 0; turn < 5; turn++) {
    const request: ProviderRequest = { model: '', system: [{ id: 's', text: 'test' }], messages, tools: TOOLS, maxTokens: 1024 };
    const { message } = stopOf(await collect(provider.stream(request)));
    messages.push(message);
    const calls = message.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
    if (calls.length === 0) return { answer: message.content.map((p) => (p.type === 'text' ? p.text : '')).join(''), toolCalls };
    toolCalls.push(...calls);
    messages.push({
      role: 'tool',
      content: calls.map((c) => ({
        type: 'tool_result',
        toolCallId: c.id,
        content: [{ type: 'text', text: c.inputError ?? 'remember the milk' }],
        ...(c.inputError ? { isError: true } : {}),
      })),
    });
  }
  throw new Error('the task did not finish in 5 turns');
}

describe.each<ProviderName>(['anthropic', 'openai'])('%s', (name) => {
  it('completes the scripted two-turn tool task', async () => {
    fake.setFixture(fixture('two-turn-tool-task'));
    const result = await runTask(name, 'What does notes.txt say?');
    expect(result.toolCalls).toEqual([{ type: 'tool_call', id: 'call_read_notes', name: 'Read', input: { file_path: 'notes.txt' } }]);
    expect(result.answer).toBe('notes.txt says: remember the milk.');
  });

  it('completes it through three faults in a row', async () => {
    fake.setFixture(fixture('two-turn-tool-task-faults'));
    fake.requests.length = 0;
    const result = await runTask(name, 'What does notes.txt say?');
    expect(result.answer).toBe('notes.txt says: remember the milk.');
    expect(fake.requests.map((r) => r.fault ?? 'ok')).toEqual(['status 429', 'reset_mid_stream', 'status 529', 'ok', 'ok']);
  });

  it('recovers from a cut-off tool call: the provider asks again, so the broken call never reaches the caller', async () => {
    fake.setFixture(fixture('truncated-tool-input'));
    fake.requests.length = 0;
    const result = await runTask(name, 'write out.txt');
    expect(result.toolCalls).toEqual([
      { type: 'tool_call', id: 'call_write', name: 'Write', input: { file_path: 'out.txt', content: 'a long body that gets cut off half way' } },
    ]);
    expect(result.answer).toBe('Wrote out.txt.');
    expect(fake.requests.map((r) => r.fault ?? 'ok')).toEqual(['truncate_tool_input', 'ok', 'ok']);
  });

  it('with no retry left, recovers from a cut-off tool call by sending the model an error', async () => {
    fake.setFixture(fixture('truncated-tool-input'));
    const result = await runTask(name, 'write out.txt', { retries: { attempts: 0 } });
    expect(result.toolCalls.map((c) => Boolean(c.inputError))).toEqual([true, false]);
    expect(result.toolCalls[1]!.input).toEqual({ file_path: 'out.txt', content: 'a long body that gets cut off half way' });
    expect(result.answer).toBe('Wrote out.txt.');
  });
});
