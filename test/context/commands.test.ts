import { describe, expect, it } from 'vitest';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';

const priced = { scripted: { 'claude-sonnet-4*': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } } };
const slash = async (s: Awaited<ReturnType<typeof contextSession>>, name: string, args = '') => {
  if (!s.kernel.commands.slash(name)) s.kernel.hooks.commands.call(s.kernel.commands);
  return String(await s.kernel.commands.slash(name)!.run(args, { print: () => {} }));
};

describe('/context, /cost and /compact', () => {
  it('/context shows the window by part as a bar chart', async () => {
    const s = await contextSession({ rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 4000 } }, files: { 'AGENTS.md': 'Use tabs.', 'src/a.ts': '' }, window: 100_000, reply: agentScript() });
    await runPrompts(s.runner, 2);
    const out = await slash(s, 'context');
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^Context of claude-sonnet-4-5: [\d,]+ of 100,000 tokens \(\d+\.\d%\), 4,000 reserved for output \(counted from reported usage and the tokenizer\)$/);
    for (const label of ['system prompt', 'tool definitions', 'memory files', 'project map', 'summary', 'history', 'todo reminder', 'output reserve', 'free'])
      expect(lines.some((l) => new RegExp(`^  ${label} +[█░]{30} +[\\d,]+ +\\d+\\.\\d%$`).test(l))).toBe(true);
    expect(lines.find((l) => l.startsWith('  memory files'))).not.toMatch(/ 0 +0\.0%$/);
    expect(lines.at(-1)).toMatch(/^Last request: [\d,]+ input tokens, [\d,]+ read from the cache, [\d,]+ written to it$/);
  });

  it('/cost shows the spend, cache reads and writes, the prices and the latest requests', async () => {
    const s = await contextSession({ rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5' }, pricing: priced }, reply: agentScript({ turnsPerPrompt: 2 }) });
    await runPrompts(s.runner, 3);
    const out = await slash(s, 'cost');
    const totals = s.kernel.budget.totals();
    expect(out).toContain(`Cost: $${totals.costUsd.toFixed(4)} for 9 requests`);
    expect(out).toMatch(/input [\d,]+ tokens: [\d,]+ read from the cache \(\d+\.\d%\), [\d,]+ written to it, [\d,]+ uncached; output [\d,]+/);
    expect(out).toContain('scripted/claude-sonnet-4-5: $3 input, $15 output, $0.3 cache read, $3.75 cache write per million tokens');
    expect(out.split('\n').filter((l) => /^  #\d+ turn: read/.test(l))).toHaveLength(5);
    const unpriced = await contextSession({ rc: { provider: { name: 'scripted', model: 'local' } }, model: 'local', reply: agentScript() });
    await runPrompts(unpriced.runner, 1);
    expect(await slash(unpriced, 'cost')).toContain('scripted/local: no price known, not counted (add it under pricing in .assistantrc)');
  });

  it('/compact [focus] runs the configured strategy on demand', async () => {
    const s = await contextSession({
      rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5' }, context: { compaction: { keepRecentTokens: 1000 } } },
      reply: agentScript({ turnsPerPrompt: 3 }),
    });
    await runPrompts(s.runner, 6);
    const before = s.session.messages.length;
    const out = await slash(s, 'compact', 'the failing tests');
    expect(out).toMatch(new RegExp(`^Compacted: \\d+ → \\d+ tokens, ${before} → ${s.session.messages.length} messages$`));
    expect(s.session.messages.length).toBeLessThan(before);
    const summary = s.scripted.requests.find((r) => r.kind === 'complete')!;
    expect(JSON.stringify(summary.request.messages.at(-1))).toContain('focus on: the failing tests');
    expect(s.persisted.filter((e) => e.type === 'compaction')).toHaveLength(1);
    // The next prompt goes on from the compacted history.
    await runPrompts(s.runner, 1);
    expect(s.scripted.requests.at(-1)!.request.messages[0]!.meta?.origin).toBe('summary');

    const fixed = await contextSession({ rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5' }, context: { strategy: 'static' } }, reply: agentScript() });
    await runPrompts(fixed.runner, 2);
    expect(await slash(fixed, 'compact')).toBe('Nothing was compacted');
    expect(fixed.notices()).toContain('the static context strategy never compacts; switch context.strategy to "compaction" to summarize older turns');
  });
});
