// The turn-boundary helpers do what docs/context.md says, on its own example history, and the two
// provider plugins take two user messages in a row as the doc's rule for context strategies says.
import { describe, expect, it } from 'vitest';
import type { Message } from '@assistant-cli/assistant';
import { isTurnBoundary, nextTurnBoundary, previousTurnBoundary, recentTurnsStart } from '@assistant-cli/assistant/kits/context';
import { toWireMessages } from '../../dist/plugins/provider-anthropic/convert.js';
import { toWireRequest } from '../../dist/plugins/provider-openai/convert.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const said = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const calls = (id: string): Message => ({ role: 'assistant', content: [{ type: 'tool_call', id, name: 'Read', input: { file_path: 'a.ts' } }] });
const result = (id: string): Message => ({ role: 'tool', content: [{ type: 'tool_result', toolCallId: id, content: [{ type: 'text', text: 'a' }] }] });

/** docs/context.md's example history. */
const m: Message[] = [user('fix the bug'), calls('c1'), result('c1'), said('fixed'), user('thanks, now the tests'), said('done')];
const tens = () => 10;

describe('turn-boundary helpers', () => {
  it('cut anywhere but before a tool message', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => isTurnBoundary(m, i))).toEqual([true, true, false, true, true, true, true]);
    expect(isTurnBoundary(m, -1)).toBe(false);
    expect(isTurnBoundary(m, 7)).toBe(false);
  });

  it('find the nearest boundary on either side, within the history', () => {
    expect(nextTurnBoundary(m, 2)).toBe(3);
    expect(previousTurnBoundary(m, 2)).toBe(1);
    expect(nextTurnBoundary(m, 3)).toBe(3);
    // Indices outside the history come back inside it.
    expect(nextTurnBoundary(m, 99)).toBe(m.length);
    expect(previousTurnBoundary(m, -5)).toBe(0);
    expect(nextTurnBoundary(m, -5)).toBe(0);
    expect(previousTurnBoundary(m, 99)).toBe(m.length);
  });

  it('keep the recent turns that fit, and always the last one', () => {
    expect(recentTurnsStart(m, 25, tens)).toBe(4);
    expect(recentTurnsStart(m, 5, tens)).toBe(5);
    expect(recentTurnsStart(m, 1000, tens)).toBe(0);
    // 45 tokens would fit messages 2..5, but 2 is c1's result: the start stays at 3 (1 would need 50).
    expect(recentTurnsStart(m, 45, tens)).toBe(3);
    expect(recentTurnsStart([], 100)).toBe(0);
  });
});

describe('two user messages in a row', () => {
  const view: Message[] = [user('summary of earlier work'), user('now the tests'), calls('c2'), result('c2'), user('reminder: 2 todos open')];

  it('become one user turn on the Anthropic wire, tool results first', () => {
    const { wire } = toWireMessages(view);
    expect(wire.map((w) => w.role)).toEqual(['user', 'assistant', 'user']);
    expect(wire[0]!.content.map((b) => b.type)).toEqual(['text', 'text']);
    expect(wire[2]!.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
  });

  it('are sent as they are on the OpenAI wire', () => {
    const body = toWireRequest({ model: 'gpt-4.1', system: [], messages: view, tools: [], maxTokens: 100 } as never, { maxTokensField: 'max_completion_tokens' });
    expect(body.messages.map((w) => w.role)).toEqual(['user', 'user', 'assistant', 'tool', 'user']);
  });
});
