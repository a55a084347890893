import { describe, expect, it } from 'vitest';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';
import { isPrefix, turnRequests } from './support/inspect.js';

const rc = { provider: { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 2000 }, context: { strategy: 'static' } };

describe('static strategy', () => {
  it('sends the history append-only, everything cacheable', async () => {
    const s = await contextSession({ rc, reply: agentScript({ turnsPerPrompt: 2, callsPerTurn: 12 }), tools: { readSize: 300 } });
    await runPrompts(s.runner, 5);
    const turns = turnRequests(s.scripted.requests);
    for (let i = 1; i < turns.length; i++) {
      expect(isPrefix(turns[i - 1]!.request, turns[i]!.request)).toBe(true);
      if (turns[i - 1]!.total >= 1024) expect(turns[i]!.usage!.cacheReadTokens).toBeGreaterThanOrEqual(turns[i - 1]!.total - 60);
    }
  });

  it('refuses with a clear error instead of overflowing, and warns before', async () => {
    const s = await contextSession({ window: 14_000, rc, reply: agentScript({ turnsPerPrompt: 3 }), tools: { readSize: 3000 } });
    let result;
    for (let i = 0; i < 20 && (result = await s.runner.run(`step ${i}`)).reason === 'completed'; i++);
    expect(result!.error?.code).toBe('ASSISTANT_CONTEXT_OVERFLOW');
    expect(result!.message).toMatch(/the static context strategy keeps every message, and this conversation now needs about \d+ input tokens/);
    expect(s.notices().some((n) => /^the context is \d+% full and the static strategy never drops messages/.test(n))).toBe(true);
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    for (const r of s.scripted.requests) expect(r.total + r.request.maxTokens).toBeLessThanOrEqual(14_000);
  });
});
