import { describe, expect, expectTypeOf, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { Stage, definePlugin, type Kernel, type PermissionDecision, type PermissionRequest, type UserMessage } from '../../dist/core/index.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();

async function kernelWith(plugins: Array<ReturnType<typeof definePlugin<any>>>, providerName?: string): Promise<Kernel> {
  const config = await loadConfig({ cwd: makeProject(), env, flags: providerName ? { provider: { name: providerName } } : undefined });
  return createKernel({
    config,
    headless: true,
    extraPlugins: plugins.map((plugin) => ({ plugin, options: {}, source: 'inline', listedIn: 'test' })),
  });
}

const request: PermissionRequest = {
  tool: 'Bash',
  input: { command: 'ls' },
  category: 'execute',
  paths: [],
  command: 'ls',
  projectRoot: '/p',
  cwd: '/p',
  mode: 'default',
  headless: true,
};

describe('hook ordering', () => {
  it('orders taps by stage, never by the order plugins are listed', async () => {
    const order: string[] = [];
    const tapAt = (name: string, stage: number) =>
      definePlugin({
        name,
        apply(kernel) {
          kernel.hooks.turnStart.tap({ name, stage }, () => void order.push(name));
        },
      });
    const kernel = await kernelWith([tapAt('ui', Stage.INTERACTIVE), tapAt('store', Stage.PERSIST), tapAt('guard', Stage.GUARD), tapAt('plain', Stage.DEFAULT)]);
    await kernel.hooks.turnStart.promise({ turn: 1, signal: new AbortController().signal });
    expect(order).toEqual(['guard', 'plain', 'ui', 'store']);
  });

  it('honours `before` between plugins of the same stage', async () => {
    const order: string[] = [];
    const kernel = await kernelWith([
      definePlugin({ name: 'first-listed', apply: (k) => k.hooks.turnEnd.tap('first-listed', () => void order.push('first-listed')) }),
      definePlugin({ name: 'jumps-ahead', apply: (k) => k.hooks.turnEnd.tap({ name: 'jumps-ahead', before: 'first-listed' }, () => void order.push('jumps-ahead')) }),
    ]);
    await kernel.hooks.turnEnd.promise({ turn: 1, signal: new AbortController().signal });
    expect(order).toEqual(['jumps-ahead', 'first-listed']);
  });

  it('lets the first decisive permission layer win and later layers never run', async () => {
    const seen: string[] = [];
    const layer = (name: string, stage: number, decision?: PermissionDecision) =>
      definePlugin({
        name,
        apply(kernel) {
          kernel.hooks.permission.tapPromise({ name, stage }, async () => {
            seen.push(name);
            return decision;
          });
        },
      });
    const kernel = await kernelWith([
      layer('grants', Stage.GRANTS, { behavior: 'allow', reason: 'granted', layer: 'grants' }),
      layer('rules', Stage.POLICY, undefined),
      layer('guard', Stage.GUARD, undefined),
      layer('mode', Stage.MODE, { behavior: 'deny', reason: 'plan mode', layer: 'mode' }),
    ]);
    await expect(kernel.hooks.permission.promise(request)).resolves.toMatchObject({ behavior: 'deny', layer: 'mode' });
    expect(seen).toEqual(['guard', 'rules', 'mode']);
  });

  it('waterfalls hand each tap the previous result', async () => {
    const kernel = await kernelWith([
      definePlugin({
        name: 'mentions',
        apply: (k) =>
          k.hooks.userPrompt.tap({ name: 'mentions', stage: 10 }, (m) => ({ ...m, content: [...m.content, { type: 'text' as const, text: '[file]' }] })),
      }),
      definePlugin({
        name: 'trim',
        apply: (k) => k.hooks.userPrompt.tap('trim', (m) => ({ ...m, content: m.content.map((p) => (p.type === 'text' ? { ...p, text: p.text.trim() } : p)) })),
      }),
    ]);
    const out = await kernel.hooks.userPrompt.promise({ role: 'user', content: [{ type: 'text', text: '  hi  ' }] }, { turn: 1, signal: new AbortController().signal });
    expect(out.content).toEqual([{ type: 'text', text: 'hi' }, { type: 'text', text: '[file]' }]);
  });

  it('records which hooks each plugin tapped, including HookMap keys', async () => {
    const kernel = await kernelWith([
      definePlugin({
        name: 'provider-x',
        apply(k) {
          k.hooks.provider.for('x').tap('provider-x', () => undefined);
          k.hooks.event.tap('provider-x', () => {});
        },
      }),
    ]);
    expect(kernel.plugins.find((p) => p.name === 'provider-x')!.hooks).toEqual(['provider.x', 'event']);
  });

  it('types hook arguments and results', async () => {
    const kernel = await kernelWith([]);
    expectTypeOf(kernel.hooks.permission.promise).parameters.toEqualTypeOf<[PermissionRequest]>();
    expectTypeOf(kernel.hooks.permission.promise).returns.resolves.toEqualTypeOf<PermissionDecision | undefined>();
    expectTypeOf(kernel.hooks.userPrompt.promise).returns.resolves.toEqualTypeOf<UserMessage>();
    expect(Object.isFrozen(kernel.hooks)).toBe(true);
  });
});

describe('providers', () => {
  it('says how to fix a provider nobody provides', async () => {
    const kernel = await kernelWith([
      definePlugin({ name: 'provider-y', apply: (k) => k.hooks.provider.for('y').tap('provider-y', () => undefined) }),
    ], 'openia');
    expect(() => kernel.provider()).toThrow(
      expect.objectContaining({ code: 'ASSISTANT_PROVIDER_UNKNOWN', message: expect.stringContaining('no loaded plugin provides "openia" (set in flags) (did you mean "openai"?)') }),
    );
  });
});
