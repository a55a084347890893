// MCP tools go through the permission engine like every tool: ask by default, rules allow or deny.
import { describe, expect, it } from 'vitest';
import type { Kernel, OriginEvent, PermissionMode } from '../../dist/core/index.js';
import { call, FIXTURE, mcpKernel, nodeServer, textOf } from './support.js';

type PermissionEvent = Extract<OriginEvent, { type: 'permission' }>;

async function withFixture(permissions: Record<string, unknown>, run: (kernel: Kernel, events: OriginEvent[]) => Promise<void>, headless = true) {
  const { kernel, events } = await mcpKernel({ mcpServers: { fx: nodeServer(FIXTURE) }, permissions }, { headless });
  try {
    await kernel.start();
    await run(kernel, events);
  } finally {
    await kernel.shutdown();
  }
}

const decisions = (events: OriginEvent[]) => events.filter((e): e is PermissionEvent => e.type === 'permission').map((e) => e.decision);

describe('permission for MCP tools', () => {
  it('asks by default; headless, that is a denial, and the suggested rule names the tool', () =>
    withFixture({}, async (kernel, events) => {
      const result = await call(kernel, 'mcp__fx__ok', { text: 'x' }, 'default');
      expect(result.metadata?.code).toBe('ASSISTANT_TOOL_DENIED');
      expect(decisions(events)[0]).toMatchObject({ behavior: 'ask', layer: 'default', suggestedRule: 'mcp__fx__ok' });
    }));

  it('runs the call when the person approves it', () =>
    withFixture(
      {},
      async (kernel, events) => {
        const asked: string[] = [];
        kernel.hooks.approval.tapPromise('test', async (items) => {
          asked.push(...items.map((i) => i.request.tool));
          return items.map(() => ({ behavior: 'allow' as const, scope: 'once' as const }));
        });
        expect(textOf(await call(kernel, 'mcp__fx__ok', { text: 'approved' }, 'default'))).toBe('ok: approved');
        expect(asked).toEqual(['mcp__fx__ok']);
        expect(decisions(events).map((d) => d.behavior)).toEqual(['ask', 'allow']);
      },
      false,
    ));

  it.each([['mcp__fx__*'], ['mcp__fx'], ['mcp__fx__ok']])('an allow rule %s lets the call run without asking', (rule) =>
    withFixture({ allow: [rule] }, async (kernel, events) => {
      expect(textOf(await call(kernel, 'mcp__fx__ok', { text: 'allowed' }, 'default'))).toBe('ok: allowed');
      expect(decisions(events)).toEqual([expect.objectContaining({ behavior: 'allow', layer: 'rules' })]);
    }));

  it('a server rule does not cover another server whose name starts the same', () =>
    withFixture({ allow: ['mcp__f'] }, async (kernel) => {
      expect((await call(kernel, 'mcp__fx__ok', { text: 'x' }, 'default')).metadata?.code).toBe('ASSISTANT_TOOL_DENIED');
    }));

  it.each<[PermissionMode]>([['default'], ['bypass']])('a deny rule beats an allow rule (%s mode)', (mode) =>
    withFixture({ allow: ['mcp__fx__*'], deny: ['mcp__fx__fail'] }, async (kernel) => {
      const denied = await call(kernel, 'mcp__fx__fail', {}, mode);
      expect(denied.metadata?.code).toBe('ASSISTANT_TOOL_DENIED');
      expect(textOf(denied)).toMatch(/mcp__fx__fail/);
      expect(textOf(await call(kernel, 'mcp__fx__ok', { text: 'x' }, mode))).toBe('ok: x');
    }));

  it('plan mode refuses MCP tools (they may change things)', () =>
    withFixture({}, async (kernel, events) => {
      expect((await call(kernel, 'mcp__fx__ok', { text: 'x' }, 'plan')).metadata?.code).toBe('ASSISTANT_TOOL_DENIED');
      expect(decisions(events)[0]).toMatchObject({ behavior: 'deny', layer: 'mode' });
    }));
});
