import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';
import { turnRequests } from './support/inspect.js';

const core = new URL('../../dist/core/index.js', import.meta.url).href;
const contextKit = new URL('../../dist/core/kits/context/index.js', import.meta.url).href;
const thirdParty = readFileSync(new URL('./support/single-breakpoint.mjs.txt', import.meta.url), 'utf8')
  .replaceAll('__CORE__', core)
  .replaceAll('__CONTEXT_KIT__', contextKit);
const provider = { name: 'scripted', model: 'claude-sonnet-4-5', maxTokens: 2000 };
type Session = Awaited<ReturnType<typeof contextSession>>;
const BUILT_INS = ['compaction', 'rolling', 'static', 'single-breakpoint'];
/** Records which offered strategies shape a request (a last tap on each name's waterfall). */
const watchStrategies = (s: Session) => {
  const ran: string[] = [];
  for (const name of BUILT_INS.filter((n) => s.kernel.hooks.contextStrategy.get(n)?.isUsed()))
    s.kernel.hooks.contextStrategy.for(name).tapPromise({ name: 'watch', stage: 1000 }, async (view) => (ran.push(name), view));
  return ran;
};

describe('choosing a context strategy', () => {
  it('offers every loaded strategy by name and runs only the one the config selects; the default is compaction', async () => {
    const s = await contextSession({ rc: { provider }, reply: agentScript() });
    expect(BUILT_INS.filter((n) => s.kernel.hooks.contextStrategy.get(n)?.isUsed())).toEqual(['compaction', 'rolling', 'static']);
    const ranByDefault = watchStrategies(s);
    await runPrompts(s.runner, 1);
    expect(new Set(ranByDefault)).toEqual(new Set(['compaction']));
    const r = await contextSession({ rc: { provider, context: { strategy: 'rolling' } }, reply: agentScript() });
    const ranRolling = watchStrategies(r);
    await runPrompts(r.runner, 1);
    expect(new Set(ranRolling)).toEqual(new Set(['rolling']));
  });

  it('lets a third-party strategy plugin replace the default', async () => {
    const s = await contextSession({
      rc: { provider, plugins: ['./single-breakpoint.mjs'], context: { strategy: 'single-breakpoint' } },
      files: { 'single-breakpoint.mjs': thirdParty },
      reply: agentScript({ turnsPerPrompt: 2 }),
    });
    const ran = watchStrategies(s);
    await runPrompts(s.runner, 2);
    expect(new Set(ran)).toEqual(new Set(['single-breakpoint']));
    for (const r of turnRequests(s.scripted.requests)) {
      expect(r.request.system.at(-1)).toEqual({ id: 'single-breakpoint', text: 'Context strategy: single-breakpoint.' });
      expect(r.request.cache).toEqual({ system: true, messages: [r.request.messages.length - 1] });
    }
  });

  it('lets a plugin of the same name replace a built-in strategy', async () => {
    const replacement = thirdParty.replace("name: 'single-breakpoint'", "name: 'context-compaction'").replace(/'single-breakpoint', async/, "'compaction', async");
    const s = await contextSession({ rc: { provider, plugins: ['./mine.mjs'] }, files: { 'mine.mjs': replacement }, reply: agentScript() });
    expect(s.kernel.plugins.filter((p) => p.name === 'context-compaction').map((p) => p.source)).toEqual([`${s.dir}/mine.mjs`]);
    await runPrompts(s.runner, 1);
    expect(turnRequests(s.scripted.requests)[0]!.request.system.at(-1)!.id).toBe('single-breakpoint');
  });

  it('names the problem when the configured strategy is not provided by any plugin', async () => {
    const s = await contextSession({ rc: { provider, context: { strategy: 'compacton' } }, reply: agentScript() });
    const result = await s.runner.run('hello');
    expect(result.error?.code).toBe('ASSISTANT_CONTEXT_STRATEGY_UNKNOWN');
    expect(result.message).toContain('context.strategy is "compacton" but no loaded plugin provides that strategy');
    expect(s.scripted.requests).toHaveLength(0);
  });

  it('refuses to send a view over the window whatever the strategy returned', async () => {
    const bloated = thirdParty.replace("{ id: 'single-breakpoint', text: 'Context strategy: single-breakpoint.' }", "{ id: 'bloat', text: 'x '.repeat(60000) }");
    const s = await contextSession({
      window: 20_000,
      rc: { provider, plugins: ['./bloat.mjs'], context: { strategy: 'single-breakpoint' } },
      files: { 'bloat.mjs': bloated },
      reply: agentScript(),
    });
    const result = await s.runner.run('hello');
    expect(result.error?.code).toBe('ASSISTANT_CONTEXT_OVERFLOW');
    expect(result.message).toMatch(/the next request needs about \d+ input tokens, but claude-sonnet-4-5 has a 20000-token window with 2000 reserved for output and \d+ for the estimate's margin; nothing was sent/);
    expect(s.scripted.requests).toHaveLength(0);
  });
});
