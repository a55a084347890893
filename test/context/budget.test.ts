import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { type ContextView, type Message } from '../../dist/core/index.js';
import { createContextLedger, costUsd, findPrice } from '../../dist/core/kits/context/index.js';
import { agentScript } from './support/agent-script.js';
import { contextSession, env, runPrompts } from './support/session.js';
import { makeProject } from '../support/project.js';

const text = (role: 'user' | 'assistant', t: string, meta?: Message['meta']): Message => ({ role, content: [{ type: 'text', text: t }], ...(meta ? { meta } : {}) }) as Message;
const view = (messages: Message[]): ContextView => ({
  model: 'm',
  system: [
    { id: 'instructions', text: 'You are assistant. '.repeat(50) },
    { id: 'memory', text: 'Use tabs. '.repeat(100), part: 'memory' },
    { id: 'project-map', text: 'src/\n  a.ts\n'.repeat(40), part: 'projectMap' },
  ],
  tools: [{ name: 'Read', description: 'Reads a file. '.repeat(20), inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
  messages,
  cache: { system: true, messages: [] },
  budget: { window: 10_000, outputReserve: 1000 },
});
const priced = { scripted: { 'claude-sonnet-4*': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } } };

describe('budget accounting', () => {
  it('breaks a request down by part', () => {
    const ledger = createContextLedger(() => undefined);
    const m = ledger.measure(
      view([
        text('user', 'Summary of what happened. '.repeat(30), { origin: 'summary' }),
        text('user', 'fix the bug '.repeat(10), { origin: 'user' }),
        text('assistant', 'done '.repeat(40)),
        text('user', '[plan] 1. tests '.repeat(5), { origin: 'reminder', tag: 'todo-reminder' }),
      ]),
    );
    for (const part of ['system', 'tools', 'memory', 'projectMap', 'summary', 'history', 'todo'] as const) expect(m.parts[part]).toBeGreaterThan(0);
    expect(m.parts.memory).toBeGreaterThan(m.parts.todo);
    expect(m.total).toBe(Object.values(m.parts).reduce((a, b) => a + b, 0));
    // Nothing is reported yet, so the whole request carries the tokenizer's margin of error.
    expect(m.margin).toBe(Math.ceil(m.total * 0.2));
    expect(m.free).toBe(10_000 - 1000 - m.margin - m.total);
    expect(m.basis).toBe('estimated');
  });

  it('counts what was sent from the reported usage, and what is new with the calibrated tokenizer', () => {
    const ledger = createContextLedger(() => undefined);
    const history = [text('user', 'hello '.repeat(200)), text('assistant', 'hi '.repeat(100))];
    const sent = view(history);
    const estimate = ledger.measure(sent).total;
    const reported = Math.round(estimate * 1.3);
    ledger.record({ ...sent, provider: 'p', usage: { inputTokens: 100, cacheReadTokens: reported - 150, cacheWriteTokens: 50, outputTokens: 20 } });
    const again = ledger.measure(sent);
    expect(again.basis).toBe('reported');
    expect(Math.abs(again.total - reported)).toBeLessThanOrEqual(7); // rounding per part
    const added = text('user', 'more '.repeat(300));
    const grown = ledger.measure(view([...history, added]));
    const addedAlone = createContextLedger(() => undefined).measure({ ...view([added]), system: [], tools: [] }).total;
    expect(Math.abs(grown.total - (reported + addedAlone * 1.3))).toBeLessThanOrEqual(10);
    // The margin covers only what was not reported: none for the sent request, a share of what was added.
    expect(again.margin).toBe(0);
    expect(Math.abs(grown.margin - addedAlone * 1.3 * 0.2)).toBeLessThanOrEqual(3);
    expect(grown.free).toBe(10_000 - 1000 - grown.margin - grown.total);
    expect(ledger.latest()?.measure.total).toBe(again.total);
  });

  it('prices models from the table: exact names, then the longest matching pattern', () => {
    const table = { anthropic: { 'claude-opus-4*': { input: 15, output: 75 }, 'claude-opus-4-5*': { input: 5, output: 25 }, 'claude-x': { input: 1, output: 1 } } };
    expect(findPrice(table, 'anthropic', 'claude-opus-4-5-20251101')?.input).toBe(5);
    expect(findPrice(table, 'anthropic', 'claude-opus-4-1')?.input).toBe(15);
    expect(findPrice(table, 'anthropic', 'claude-x')?.input).toBe(1);
    expect(findPrice(table, 'anthropic', 'claude-xy')).toBeUndefined();
    expect(findPrice(table, 'openai', 'gpt-4.1')).toBeUndefined();
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 400_000 };
    expect(costUsd(usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
    // No cache prices: cache traffic costs the input price (OpenAI writes are free of surcharge).
    expect(costUsd(usage, { input: 2, output: 8 })).toBeCloseTo(2 + 0.8 + 4 + 0.8, 10);
  });

  it('ships published prices as data that any config layer can override or extend', async () => {
    const defaults = await loadConfig({ cwd: makeProject(), env });
    expect(findPrice(defaults.values.pricing, 'anthropic', 'claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(findPrice(defaults.values.pricing, 'openai', 'gpt-4.1-mini')?.input).toBe(0.4);
    const dir = makeProject({ '.assistantrc': 'pricing:\n  anthropic:\n    claude-sonnet-4*: { input: 2, output: 10 }\n  ollama:\n    "*": { input: 0, output: 0 }\n' });
    const custom = await loadConfig({ cwd: dir, env });
    // Layers merge key by key, so unspecified cache prices stay those of the lower layer.
    expect(findPrice(custom.values.pricing, 'anthropic', 'claude-sonnet-4-5')).toEqual({ input: 2, output: 10, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(findPrice(custom.values.pricing, 'anthropic', 'claude-haiku-4-5')?.input).toBe(1);
    expect(findPrice(custom.values.pricing, 'ollama', 'llama3')?.input).toBe(0);
    const bad = makeProject({ '.assistantrc': 'pricing:\n  anthropic:\n    claude-x: { input: -1 }\n' });
    await expect(loadConfig({ cwd: bad, env })).rejects.toMatchObject({ code: 'ASSISTANT_CONFIG_INVALID', message: expect.stringContaining('/pricing/anthropic/claude-x') });
  });

  it('records every request with its cache reads, writes and cost', async () => {
    const s = await contextSession({ rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5' }, pricing: priced }, reply: agentScript({ turnsPerPrompt: 2 }) });
    await runPrompts(s.runner, 3);
    const records = s.kernel.budget.requests;
    expect(records).toHaveLength(9);
    records.forEach((r, i) => {
      const seen = s.scripted.requests[i]!;
      expect(r.usage).toEqual(seen.usage);
      expect(r.costUsd).toBeCloseTo(costUsd(seen.usage!, priced.scripted['claude-sonnet-4*']), 12);
      expect(r.measure.total).toBeGreaterThan(0);
    });
    const totals = s.kernel.budget.totals();
    expect(totals.requests).toBe(9);
    expect(totals.unpriced).toEqual([]);
    expect(totals.costUsd).toBeCloseTo(records.reduce((sum, r) => sum + r.costUsd!, 0), 12);
    expect(totals.usage.cacheReadTokens).toBeGreaterThan(0);
    expect(s.session.usage).toEqual(totals.usage);
  });

  it('stops a prompt at limits.maxCostUsd', async () => {
    const s = await contextSession({
      rc: { provider: { name: 'scripted', model: 'claude-sonnet-4-5' }, pricing: priced, limits: { maxCostUsd: 0.01 } },
      reply: agentScript({ turnsPerPrompt: 50 }),
      tools: { readSize: 8000 },
    });
    const result = await s.runner.run('read everything');
    expect(result.reason).toBe('budget');
    expect(result.message).toMatch(/^stopped: this prompt cost \$0\.01\d* \(limits\.maxCostUsd = \$0\.01\)$/);
    const spent = s.kernel.budget.totals().costUsd;
    expect(spent).toBeGreaterThanOrEqual(0.01);
    // It stops at the first turn past the limit.
    expect(spent - s.kernel.budget.requests.at(-1)!.costUsd!).toBeLessThan(0.01);
  });

  it('refuses limits.maxCostUsd for a model without a price, before sending anything', async () => {
    const s = await contextSession({ rc: { provider: { name: 'scripted', model: 'local-llama' }, limits: { maxCostUsd: 1 } }, model: 'local-llama', reply: agentScript() });
    const result = await s.runner.run('hi');
    expect(result.error?.code).toBe('ASSISTANT_PRICE_UNKNOWN');
    expect(result.message).toContain('no price is known for scripted/local-llama');
    expect(result.message).toContain('pricing.scripted');
    expect(s.scripted.requests).toHaveLength(0);
  });
});
