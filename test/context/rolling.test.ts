import { describe, expect, it } from 'vitest';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';
import { isPrefix, pairsIntact, rewrites, turnRequests, userWords } from './support/inspect.js';

const rc = (rolling: Record<string, unknown>) => ({
  provider: { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 2000 },
  context: { strategy: 'rolling', rolling },
});

describe('rolling strategy', () => {
  it('rotates out blocks of rotationInterval messages at maxMessages, keeping the prefix byte-identical between rotations', async () => {
    const s = await contextSession({ rc: rc({ maxMessages: 40, rotationInterval: 16 }), reply: agentScript({ turnsPerPrompt: 3, callsPerTurn: 2 }) });
    await runPrompts(s.runner, 30, (i) => `Task step ${i}`);
    const turns = turnRequests(s.scripted.requests);
    const rotations = rewrites(s.scripted.requests);
    // 30 prompts × 8 messages = 240 messages: about (240 − 40) / 16 rotations, never one per request.
    expect(rotations.length).toBeGreaterThanOrEqual(10);
    expect(rotations.length).toBeLessThanOrEqual(16);
    for (let i = 1; i < turns.length; i++) {
      const messages = turns[i]!.request.messages;
      expect(messages.length).toBeLessThanOrEqual(41 + 8);
      if (!rotations.includes(i)) expect(isPrefix(turns[i - 1]!.request, turns[i]!.request)).toBe(true);
      expect(pairsIntact(messages)).toBe(true);
      expect(messages[0]!.role).toBe('user');
    }
    // Between rotations every request reads everything the previous one sent from the cache.
    for (let i = 1; i < turns.length; i++) if (!rotations.includes(i) && turns[i - 1]!.total >= 1024) expect(turns[i]!.usage!.cacheReadTokens).toBeGreaterThanOrEqual(turns[i - 1]!.total - 40);
    // The note replacing rotated messages is byte-stable and carries the first task.
    const notes = turns.filter((t) => t.request.messages[0]!.meta?.tag === 'context-rolling').map((t) => JSON.stringify(t.request.messages[0]!.content));
    expect(new Set(notes).size).toBe(1);
    expect(notes[0]).toContain('Task step 0');
    expect(s.notices().some((n) => /^rolled \d+ older messages out of the context window/.test(n))).toBe(true);
    // The session itself keeps everything: rotation only shapes what is sent.
    expect(userWords([...s.session.messages])).toContain('Task step 0');
    expect(s.persisted.some((e) => e.type === 'compaction')).toBe(false);
  });

  it('rotates more blocks when the request would pass the token threshold, and never sends one over the window', async () => {
    const window = 30_000;
    const s = await contextSession({ window, rc: rc({ maxMessages: 1000, rotationInterval: 8, threshold: 0.6 }), reply: agentScript({ turnsPerPrompt: 3 }), tools: { readSize: 3000 } });
    await runPrompts(s.runner, 30);
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
    for (const r of s.scripted.requests) expect(r.total + r.request.maxTokens).toBeLessThanOrEqual(window);
    expect(rewrites(s.scripted.requests).length).toBeGreaterThan(0);
  });

  it('refuses with a clear error when even the latest turn does not fit', async () => {
    const s = await contextSession({ window: 12_000, rc: rc({}), reply: agentScript({ turnsPerPrompt: 1, call: () => ({ name: 'Bash', input: { command: 'cat big' } }) }), tools: { bashSize: 60_000 } });
    const result = await s.runner.run('go');
    expect(result.reason).toBe('error');
    expect(result.error?.code).toBe('ASSISTANT_CONTEXT_OVERFLOW');
    expect(result.message).toMatch(/even the latest turn alone needs about \d+ input tokens/);
    expect(s.scripted.requests.filter((r) => r.rejected)).toEqual([]);
  });
});
