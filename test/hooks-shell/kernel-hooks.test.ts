// The kernel hooks the shell hooks map to, as a plugin author taps them: `beforeStop` and `sessionOpen`.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import {
  definePlugin,
  type Hooks,
  type Kernel,
  type OriginEvent,
  type Plugin,
  type SessionOpenInfo,
  type SessionOpenSource,
  type StopContext,
} from '../../dist/core/index.js';
import { createRunner, openSession, type SessionState } from '../../dist/core/kits/agent/index.js';
import { isolatedEnv } from '../support/project.js';
import { gitProject, sharedFakeLlm } from '../e2e/support.js';

const llm = sharedFakeLlm();

async function kernelWith(plugin: Plugin<any>): Promise<{ kernel: Kernel; events: OriginEvent[] }> {
  const config = await loadConfig({
    cwd: gitProject({ 'README.md': '# app\n' }),
    env: isolatedEnv(),
    noUserConfig: true,
    flags: { provider: { name: 'anthropic', baseURL: llm.server.anthropicBaseURL }, persistence: { store: 'none' } },
  });
  const kernel = await createKernel({ config, headless: true, extraPlugins: [{ plugin, options: {}, source: 'test', listedIn: 'test' }] });
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test-events', (e) => void events.push(e));
  await kernel.start();
  return { kernel, events };
}

describe('beforeStop', () => {
  it('is typed: the stop context in, a message or nothing out', () => {
    expectTypeOf<Hooks['beforeStop']['promise']>().parameters.toEqualTypeOf<[StopContext]>();
    expectTypeOf<Hooks['beforeStop']['promise']>().returns.resolves.toEqualTypeOf<string | undefined>();
    expectTypeOf<Hooks['sessionOpen']['promise']>().parameters.toEqualTypeOf<[SessionState, SessionOpenInfo]>();
  });

  it('sends the model back to work with the first message a tap returns, counting how often', async () => {
    llm.script({ turns: [{ name: 'a', reply: { text: 'first' } }, { name: 'b', when: { contains: 'check the docs too' }, reply: { text: 'second' } }], fallback: { text: 'UNEXPECTED' } });
    const seen: Array<Pick<StopContext, 'text' | 'continued' | 'turn'>> = [];
    const { kernel } = await kernelWith(
      definePlugin({
        name: 'test-stop',
        apply: (k) => k.hooks.beforeStop.tapPromise('test-stop', async ({ text, continued, turn }) => (seen.push({ text, continued, turn }), continued ? undefined : 'check the docs too')),
      }),
    );
    const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default' });
    const result = await createRunner(kernel, session).run('go');
    expect(result).toMatchObject({ reason: 'completed', text: 'second', turns: 2 });
    expect(seen).toEqual([
      { text: 'first', continued: 0, turn: 1 },
      { text: 'second', continued: 1, turn: 2 },
    ]);
    expect(session.messages.map((m) => [m.role, m.meta?.origin])).toEqual([
      ['user', 'user'],
      ['assistant', undefined],
      ['user', 'reminder'],
      ['assistant', undefined],
    ]);
    await kernel.shutdown();
  });

  it('fails open: a throwing tap is reported and the reply stands', async () => {
    llm.script({ turns: [{ reply: { text: 'done' } }], fallback: { text: 'UNEXPECTED' } });
    const { kernel, events } = await kernelWith(
      definePlugin({
        name: 'test-stop',
        apply: (k) =>
          k.hooks.beforeStop.tapPromise('test-stop', async () => {
            throw new Error('checker crashed');
          }),
      }),
    );
    const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default' });
    const result = await createRunner(kernel, session).run('go');
    expect(result).toMatchObject({ reason: 'completed', text: 'done', turns: 1 });
    expect(events.find((e) => e.type === 'notice')).toMatchObject({ level: 'warn', code: 'ASSISTANT_PLUGIN_HOOK_FAILED' });
    expect(JSON.stringify(events)).toContain('a beforeStop hook failed, so the reply stands: plugin \\"test-stop\\" failed in hook \\"beforeStop\\": checker crashed');
    await kernel.shutdown();
  });
});

describe('sessionOpen', () => {
  it('fires once per opened session, saying how it opened, after its start is recorded', async () => {
    const opened: Array<[SessionOpenSource, string, number]> = [];
    const { kernel } = await kernelWith(
      definePlugin({ name: 'test-open', apply: (k) => k.hooks.sessionOpen.tap('test-open', (session, info) => void opened.push([info.source, session.info.id, session.messages.length])) }),
    );
    const first = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default' });
    const snapshot = { info: first.info, messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'old' }] }], todos: [], grants: [], usage: first.usage, compactions: [], warnings: [] };
    const resumed = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default', resume: snapshot });
    const forked = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default', fork: snapshot });
    const cleared = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default', cleared: true });
    expect(opened).toEqual([
      ['startup', first.info.id, 0],
      ['resume', resumed.info.id, 1],
      ['fork', forked.info.id, 1],
      ['clear', cleared.info.id, 0],
    ]);
    expect(resumed.info.id).toBe(first.info.id);
    expect(new Set([first.info.id, forked.info.id, cleared.info.id]).size).toBe(3);
    await kernel.shutdown();
  });
});
