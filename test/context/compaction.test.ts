import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../dist/core/index.js';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';
import { isPrefix, pairsIntact, rewrites, turnRequests, userWords } from './support/inspect.js';

const WINDOW = 40_000;
const rc = (compaction: Record<string, unknown> = {}) => ({
  provider: { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 2000 },
  context: { strategy: 'compaction', compaction: { keepRecentTokens: 6000, summaryMaxTokens: 1000, ...compaction } },
});
const distinctFiles = (request: number, j: number) => ({ name: 'Read', input: { file_path: `src/unique-${request}-${j}.ts` } });

describe('compaction strategy', () => {
  it('keeps a long session under the window, summarizing older turns and keeping recent turns and every user message', async () => {
    const s = await contextSession({ window: WINDOW, rc: rc(), reply: agentScript({ turnsPerPrompt: 3, call: distinctFiles }), tools: { readSize: 2000 } });
    const prompts = (i: number) => `Prompt ${i}: please handle part ${i} of the refactor.`;
    await runPrompts(s.runner, 40, prompts);

    const turns = turnRequests(s.scripted.requests);
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    for (const r of s.scripted.requests) expect(r.total + r.request.maxTokens).toBeLessThanOrEqual(WINDOW);
    const compactions = s.persisted.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    for (const c of compactions) if (c.type === 'compaction') expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    expect(s.notices().filter((n) => /^compacted the context: \d+ → \d+ tokens \(saved \d+\); summarized/.test(n)).length).toBe(compactions.length);

    // Every prompt the user typed is still in the history, word for word (in a summary or as a message).
    const words = userWords([...s.session.messages]);
    for (let i = 0; i < 40; i++) expect(words).toContain(prompts(i));

    // Around each compaction: the request after it starts with the summary, then the tail of the request before it, verbatim.
    for (const at of rewrites(s.scripted.requests)) {
      const before = turns[at - 1]!.request.messages;
      const after = turns[at]!.request.messages;
      expect(after[0]!.meta?.origin).toBe('summary');
      const kept = after.slice(1, after.length - 2); // the latest reply and its results are new
      expect(kept.length).toBeGreaterThan(4);
      expect(JSON.stringify(before.slice(before.length - kept.length))).toBe(JSON.stringify(kept));
      expect(kept[0]!.role).not.toBe('tool');
      expect(pairsIntact(after)).toBe(true);
    }
  });

  it('asks for a structured summary with the focus and the plan, reusing the cached prefix of the last request', async () => {
    const s = await contextSession({ window: WINDOW, rc: rc(), reply: agentScript({ turnsPerPrompt: 3, call: distinctFiles }) });
    await runPrompts(s.runner, 12);
    await s.session.record({ type: 'todos', todos: [{ id: '1', content: 'migrate the parser', status: 'in_progress' }] });
    const view = await compactNow(s, 'the parser migration');
    const summaries = s.scripted.requests.filter((r) => r.kind === 'complete');
    expect(summaries).toHaveLength(1);
    const call = summaries[0]!;
    const instruction = call.request.messages.at(-1)!;
    const text = instruction.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    for (const heading of ['## Goal', '## Decisions', '## Files changed', '## Current state', '## Open todos', '## User preferences']) expect(text).toContain(heading);
    expect(text).toContain('focus on: the parser migration');
    expect(text).toContain('[in_progress] migrate the parser');
    // The summary request is the last turn request's history plus the instruction, so it is read from the cache.
    const last = turnRequests(s.scripted.requests).at(-1)!;
    expect(isPrefix(last.request, { ...call.request, messages: call.request.messages.slice(0, -1) })).toBe(true);
    expect(call.usage!.cacheReadTokens).toBeGreaterThanOrEqual(last.total - 50);
    expect(call.usage!.cacheWriteTokens).toBe(0);
    expect(call.request.tools.map((t) => t.name)).toEqual(last.request.tools.map((t) => t.name));
    // The plan is untouched, and the ledger knows the summary call.
    expect(s.session.todos).toHaveLength(1);
    expect(s.kernel.budget.requests.filter((r) => r.purpose === 'compaction')).toHaveLength(1);
    expect(view.messages[0]!.meta?.origin).toBe('summary');
  });

  it('truncates large old tool outputs to head + tail and drops reads superseded by a later read or edit', async () => {
    const plan = [
      [{ name: 'Bash', input: { command: 'npm run build' } }],
      [{ name: 'Read', input: { file_path: 'src/a.ts' } }],
      [{ name: 'Read', input: { file_path: 'src/b.ts' } }],
      [{ name: 'Edit', input: { file_path: 'src/b.ts', old_string: 'x', new_string: 'y' } }],
      [{ name: 'Read', input: { file_path: 'src/a.ts' } }],
      [{ name: 'Read', input: { file_path: 'src/c.ts', offset: 10, limit: 5 } }],
      [{ name: 'Read', input: { file_path: 'src/c.ts', offset: 50, limit: 5 } }],
    ];
    const s = await contextSession({ window: 100_000, rc: rc({ keepRecentTokens: 200 }), reply: replayOf(plan), tools: { readSize: 600, bashSize: 20_000 } });
    await s.runner.run('Build it and look around.');
    expect(s.persisted.some((e) => e.type === 'compaction')).toBe(false);
    // A smaller window: the next turn is past the threshold, and cutting the old outputs is enough.
    s.scripted.setWindow(8000);
    await runPrompts(s.runner, 1);
    const notice = s.notices().find((n) => n.startsWith('compacted the context'));
    expect(notice).toMatch(/saved \d+\); cut 1 old tool outputs to head and tail; dropped 2 superseded file reads$/);
    expect(s.scripted.requests.filter((r) => r.kind === 'complete')).toHaveLength(0);
    const results = s.session.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    const text = (r: (typeof results)[number]) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const bash = text(results[0]!);
    expect(bash.length).toBeLessThan(7600);
    expect(bash).toMatch(/^\$ npm run build\noutput line/);
    expect(bash).toMatch(/\[\.\.\. \d+ characters of this old Bash npm run build output were removed to save context; call Bash again/);
    expect(bash.endsWith('output line of a long build log\n')).toBe(true);
    expect(results.map(text).filter((t) => t.includes('was removed:'))).toEqual([
      expect.stringContaining('Read (src/a.ts) was removed: the file was read again later'),
      expect.stringContaining('Read (src/b.ts) was removed: the file was edited later (Edit)'),
    ]);
    // A partial read is not superseded by a read of another range, and the latest reads are untouched.
    expect(text(results[5]!)).toContain('src/c.ts: export function');
    expect(text(results[4]!)).toContain('src/a.ts: export function');
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
  });

  it('never sends a request over the window, even when one turn jumps past what a summary request could hold', async () => {
    const script = agentScript({ turnsPerPrompt: 3, call: distinctFiles });
    const reply = (request: Parameters<typeof script>[0], index: number) =>
      index === 48 ? [{ type: 'tool_call', id: 'big', name: 'Bash', input: { command: 'cat huge.log' } }] : script(request, index);
    const s = await contextSession({ window: WINDOW, rc: rc({ truncateAbove: 90_000, headChars: 60_000 }), reply, tools: { readSize: 2000, bashSize: 64_000 } });
    await runPrompts(s.runner, 16);
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    for (const r of s.scripted.requests) expect(r.total + r.request.maxTokens).toBeLessThanOrEqual(WINDOW);
    const summaries = s.scripted.requests.filter((r) => r.kind === 'complete');
    // The whole history no longer fitted a summary request, so the oldest turns were summarized on their own.
    expect(summaries.some((r) => JSON.stringify(r.request.messages.at(-1)).includes('Summarize all of the conversation above.'))).toBe(true);
    // The huge output is never cut before the model saw it, and the history still holds it.
    expect(JSON.stringify(s.session.messages)).toContain('$ cat huge.log');
  });

  it('keeps fewer recent tokens than keepRecentTokens in a window too small for them, and every prompt completes', async () => {
    // The default 20k recent tokens would leave a 32k window (a local model's) full after every compaction.
    const small = 32_768;
    const s = await contextSession({
      window: small,
      rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 4096 }, context: { strategy: 'compaction' } },
      reply: agentScript({ turnsPerPrompt: 3, call: distinctFiles }),
      tools: { readSize: 2000 },
    });
    await runPrompts(s.runner, 24);
    expect(s.persisted.filter((e) => e.type === 'compaction').length).toBeGreaterThanOrEqual(2);
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    for (const r of s.scripted.requests) expect(r.total + r.request.maxTokens).toBeLessThanOrEqual(small);
    for (const c of s.persisted) if (c.type === 'compaction') expect(c.tokensAfter).toBeLessThanOrEqual(0.5 * small);
  });

  it('keeps the cache warm through wide turns: every request reads what the previous one sent', async () => {
    const s = await contextSession({
      window: 400_000,
      rc: rc({ keepRecentTokens: 20_000 }),
      reply: agentScript({ callsPerTurn: 12, turnsPerPrompt: 2, call: distinctFiles }),
      tools: { readSize: 400 },
    });
    await runPrompts(s.runner, 10);
    const turns = turnRequests(s.scripted.requests);
    expect(turns.every((r) => r.blocks > 0)).toBe(true);
    // (Prefixes under Anthropic's 1,024-token minimum are never cached.)
    const warm = turns.filter((r, i) => i > 0 && turns[i - 1]!.total >= 1024);
    expect(warm.length).toBeGreaterThan(20);
    for (let i = 1; i < turns.length; i++) if (turns[i - 1]!.total >= 1024) expect(turns[i]!.usage!.cacheReadTokens).toBeGreaterThanOrEqual(turns[i - 1]!.total - 60);
    const totals = s.kernel.budget.totals();
    const share = totals.usage.cacheReadTokens / (totals.usage.cacheReadTokens + totals.usage.cacheWriteTokens + totals.usage.inputTokens);
    expect(share).toBeGreaterThan(0.9);
  });

  it('falls back to cutting old outputs when the summary call fails, and otherwise leaves the history unchanged', async () => {
    const s = await contextSession({ window: WINDOW, failSummary: true, rc: rc({ dropSupersededReads: false }), reply: agentScript({ turnsPerPrompt: 3, call: distinctFiles }) });
    await runPrompts(s.runner, 8);
    const history = JSON.stringify(s.session.messages);
    await expect(compactNow(s)).rejects.toMatchObject({ code: 'ASSISTANT_CONTEXT_COMPACTION_FAILED' });
    expect(JSON.stringify(s.session.messages)).toBe(history);

    const builds = agentScript({ turnsPerPrompt: 3, call: (i) => ({ name: 'Bash', input: { command: `make step-${i}` } }) });
    const big = await contextSession({ window: WINDOW, failSummary: true, rc: rc({ threshold: 0.5, target: 0.3 }), reply: builds, tools: { bashSize: 12_000 } });
    // The history as each turn started: an earlier turn of the same prompt may have cut outputs successfully.
    let before = [...big.session.messages];
    big.kernel.hooks.turnStart.tap('snapshot', () => void (before = [...structuredClone(big.session.messages)]));
    let last;
    for (let i = 0; i < 10; i++) {
      last = await big.runner.run(`step ${i}`);
      if (last.reason !== 'completed') {
        // Once cutting outputs cannot help any more, the outage is reported and nothing already in the history changed.
        expect(last.error?.code).toBe('ASSISTANT_CONTEXT_COMPACTION_FAILED');
        expect(big.session.messages.slice(0, before.length)).toEqual(before);
        break;
      }
    }
    expect(last?.reason).toBe('error');
    expect(big.notices().filter((n) => /^the summary request failed \(.*Overloaded.*\); cut old tool outputs instead$/.test(n)).length).toBeGreaterThan(0);
    expect(big.scripted.requests.filter((r) => r.rejected && r.rejected !== 'overloaded')).toEqual([]);
  });

  it('rejects a target at or above the threshold, naming both options', async () => {
    await expect(contextSession({ rc: rc({ threshold: 0.5, target: 0.6 }), reply: agentScript() })).rejects.toMatchObject({
      code: 'ASSISTANT_PLUGIN_OPTIONS_INVALID',
      message: expect.stringContaining('context.compaction.target (0.6) must be below context.compaction.threshold (0.5)'),
    });
  });
});

/** Replays a fixed list of tool turns, then answers with text. */
function replayOf(plan: Array<Array<{ name: string; input: Record<string, unknown> }>>) {
  let step = 0;
  return (_request: unknown, index: number): AssistantMessage['content'] =>
    step < plan.length ? plan[step++]!.map((c, j) => ({ type: 'tool_call' as const, id: `c${index}_${j}`, ...c })) : [{ type: 'text', text: 'ok' }];
}

/** Runs the strategy on demand, as `/compact` does. */
async function compactNow(s: Awaited<ReturnType<typeof contextSession>>, focus?: string) {
  const { buildContextView, requestSettings } = await import('../../dist/core/kits/context/index.js');
  const { sessionConversation } = await import('../../dist/core/kits/agent/index.js');
  const conversation = sessionConversation(s.session);
  return buildContextView(s.kernel, {
    messages: s.session.messages,
    settings: requestSettings(s.kernel),
    reason: { kind: 'compact', focus, replaceHistory: (r) => conversation.replace(r) },
  });
}

describe('compaction of a sub-agent conversation', () => {
  it('compacts a private conversation on its own, leaving the session alone', async () => {
    const { runAgentLoop, memoryConversation } = await import('../../dist/core/kits/agent/index.js');
    const explore = agentScript({ turnsPerPrompt: 1000, call: distinctFiles });
    const reply = (request: Parameters<typeof explore>[0], index: number) => (index < 70 ? explore(request, index) : [{ type: 'text', text: 'Explored.' }]);
    const s = await contextSession({ window: WINDOW, rc: rc(), reply, tools: { readSize: 2000 } });
    const conversation = memoryConversation();
    const result = await runAgentLoop(s.kernel, { conversation, prompt: 'Explore the codebase.', signal: new AbortController().signal, mode: 'bypass', agentId: 'explorer' });
    expect(result.reason).toBe('completed');
    expect(conversation.messages[0]!.meta?.origin).toBe('summary');
    expect(userWords([...conversation.messages])).toContain('Explore the codebase.');
    expect(s.session.messages).toHaveLength(0);
    expect(s.persisted.some((e) => e.type === 'compaction')).toBe(false);
    expect(s.events.some((e) => e.type === 'notice' && e.agentId === 'explorer' && e.message.startsWith('compacted the context'))).toBe(true);
    expect(s.kernel.budget.requests.filter((r) => r.purpose === 'compaction').every((r) => r.agentId === 'explorer')).toBe(true);
    for (const r of s.scripted.requests) expect(r.total + r.request.maxTokens).toBeLessThanOrEqual(WINDOW);
  });
});
