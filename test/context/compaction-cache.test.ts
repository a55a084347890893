import { describe, expect, it } from 'vitest';
import type { Message } from '../../dist/core/index.js';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';
import { isPrefix, turnRequests } from './support/inspect.js';
import type { SeenRequest } from './support/scripted-provider.js';

// A summary request is the main loop's request plus one instruction (what Claude Code does), so the
// provider reads nearly all of it from the prompt cache instead of re-reading the history in full.

const WINDOW = 40_000;
const rc = (provider: Record<string, unknown> = {}) => ({
  provider: { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 3000, ...provider },
  context: { strategy: 'compaction', compaction: { keepRecentTokens: 6000, summaryMaxTokens: 1000 } },
});
const reply = () => agentScript({ turnsPerPrompt: 3, call: (request: number, j: number) => ({ name: 'Read', input: { file_path: `src/unique-${request}-${j}.ts` } }) });
const readShare = (r: SeenRequest) => r.usage!.cacheReadTokens / r.total;
const text = (m: Message) => m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

describe('compaction summary requests reuse the main loop prefix', () => {
  it('sends the last turn request (system, tools, thinking budget, breakpoints, messages) plus one instruction, read ≥ 90% from the cache', async () => {
    const s = await contextSession({ window: WINDOW, rc: rc({ thinkingBudget: 2048 }), reply: reply(), tools: { readSize: 2000 } });
    await runPrompts(s.runner, 40);
    const summaries = s.scripted.requests.filter((r) => r.kind === 'complete');
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const summary of summaries) {
      const at = s.scripted.requests.indexOf(summary);
      const last = s.scripted.requests.slice(0, at).findLast((r) => r.kind === 'stream')!;
      const sent = summary.request;
      // The same prefix, byte for byte: system, tools, and every message the last request had.
      expect(JSON.stringify(sent.system)).toBe(JSON.stringify(last.request.system));
      expect(JSON.stringify(sent.tools)).toBe(JSON.stringify(last.request.tools));
      expect(isPrefix(last.request, { ...sent, messages: sent.messages.slice(0, -1) })).toBe(true);
      // Its breakpoints are where the last request wrote, and thinking is unchanged (a change drops Anthropic's cached messages).
      expect(sent.cache?.messages.length).toBeGreaterThan(0);
      for (const i of sent.cache!.messages) expect(last.request.cache!.messages).toContain(i);
      expect(sent.thinkingBudget).toBe(2048);
      expect(last.request.thinkingBudget).toBe(2048);
      expect(sent.maxTokens).toBe(1000 + 2048);
      // Then the latest reply and its results, and ONE instruction.
      const added = sent.messages.slice(last.request.messages.length, -1);
      expect(added.map((m) => m.role)).toEqual(['assistant', 'tool']);
      expect(sent.messages.at(-1)!.meta?.tag).toBe('compaction-request');
      expect(text(sent.messages.at(-1)!)).toContain('## Goal');
      expect(readShare(summary)).toBeGreaterThanOrEqual(0.9);
      expect(summary.usage!.cacheWriteTokens).toBe(0);
    }
    // Quality holds: no request was refused, and every prompt went on after the compactions.
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    expect(turnRequests(s.scripted.requests).at(-1)!.request.messages[0]!.meta?.origin).toBe('summary');
  });

  it('reads the previous process\'s cached history when a resumed session compacts before its first request', async () => {
    const first = await contextSession({ window: WINDOW, rc: rc(), reply: reply(), tools: { readSize: 1000 } });
    await runPrompts(first.runner, 12);
    expect(first.scripted.requests.filter((r) => r.kind === 'complete')).toEqual([]);
    const previous = turnRequests(first.scripted.requests).at(-1)!;

    // A new process (`--continue`) against the same provider cache: the history comes back from disk, and nothing was sent yet.
    const second = await contextSession({ dir: first.dir, window: WINDOW, rc: rc(), reply: reply(), tools: { readSize: 1000 }, cache: first.scripted.cache });
    const history: Message[] = structuredClone([...first.session.messages]);
    const { buildContextView, requestSettings } = await import('../../dist/core/kits/context/index.js');
    let replaced: Message[] | undefined;
    const view = await buildContextView(second.kernel, {
      messages: history,
      settings: requestSettings(second.kernel),
      reason: { kind: 'compact', replaceHistory: async (r) => void (replaced = r.messages) },
    });

    const [summary] = second.scripted.requests.filter((r) => r.kind === 'complete');
    expect(summary).toBeDefined();
    expect(isPrefix(previous.request, { ...summary!.request, messages: summary!.request.messages.slice(0, -1) })).toBe(true);
    // One breakpoint on the newest message: the provider's lookback finds the entry the previous process wrote.
    expect(summary!.request.cache).toEqual({ system: true, messages: [history.length - 1] });
    expect(readShare(summary!)).toBeGreaterThanOrEqual(0.9);
    expect(replaced?.[0]!.meta?.origin).toBe('summary');
    expect(view.messages[0]!.meta?.origin).toBe('summary');
  });

  it('compacts a session resumed by a new process for each prompt instead of refusing it, every summary read ≥ 90% from the cache', async () => {
    // A fresh process has no calibration yet, so the estimate keeps a wide margin: the old trigger ignored it and refused prompts.
    const first = await contextSession({ window: WINDOW, rc: rc(), reply: reply(), tools: { readSize: 2000 } });
    const cache = first.scripted.cache;
    let s = first;
    const summaries: SeenRequest[] = [];
    for (let i = 0; i < 48; i++) {
      if (i > 0) {
        const { info, messages, todos, grants, usage, compactions } = s.session;
        const resume = structuredClone({ info, messages: [...messages], todos: [...todos], grants: [...grants], usage: { ...usage }, compactions: [...compactions], warnings: [] });
        await s.kernel.shutdown();
        s = await contextSession({ dir: first.dir, window: WINDOW, rc: rc(), reply: reply(), tools: { readSize: 2000 }, cache, resume });
      }
      await runPrompts(s.runner, 1, () => `Prompt ${i}: carry on with step ${i} of the task.`);
      summaries.push(...s.scripted.requests.filter((r) => r.kind === "complete"));
      expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    }
    await s.kernel.shutdown();
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    for (const summary of summaries) expect(readShare(summary)).toBeGreaterThanOrEqual(0.9);
  });
});
