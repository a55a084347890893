import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel, LockSet, ToolDefinition } from '../../dist/core/index.js';
import { tempDir } from '../support/project.js';
import { threadCount } from './thread-count.js';
import { PROBE, allowAll, call, inline, kernelFor, runCalls, runOne, text } from './helpers.js';
import { pollUntil } from '../support/wait.js';

type Meta = { start: number; end: number; met: boolean | null; state: Record<string, unknown> };

/** Probe tools: `ProbeRead` reads `input.path`, `ProbeWrite` writes it, `ProbeSlow` has a short timeout. */
const probes = inline('test-probes', (kernel) => {
  const schema = { type: 'object', properties: { kind: { type: 'string' }, ms: { type: 'integer' }, path: { type: 'string' }, dir: { type: 'string' }, count: { type: 'integer' } }, required: ['kind'] };
  const base = {
    inputSchema: schema,
    module: PROBE,
    risk: { category: 'read' as const },
    summarize: (i: Record<string, unknown>) => `${i.kind}`,
  };
  const reads = (i: Record<string, unknown>) => ({ reads: [String(i.path ?? '.')], writes: [] });
  const writes = (i: Record<string, unknown>) => ({ reads: [], writes: [String(i.path ?? '.')] });
  kernel.tools.register({ ...base, name: 'ProbeRead', description: 'reads', access: reads });
  kernel.tools.register({ ...base, name: 'ProbeWrite', description: 'writes', access: writes });
  kernel.tools.register({ ...base, name: 'ProbeSlow', description: 'times out', access: reads, timeoutMs: 300 });
  kernel.tools.register({
    ...base,
    name: 'ProbeState',
    description: 'prepare hands state to the worker',
    access: reads,
    prepare: (input) => ({ state: { seen: `state-for-${input.kind}` } }),
  });
});

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
});

async function setup(plugins = [allowAll, probes], options = {}) {
  const root = tempDir();
  const made = await kernelFor(root, plugins, { toolRuntime: { maxThreads: 4 }, ...options });
  kernel = made.kernel;
  return { root, ...made };
}

describe('tool pipeline', () => {
  it('creates the pool on the first worker call, not at apply, and destroys it on shutdown', async () => {
    const { kernel: k } = await setup();
    expect(k.tools.get('Read')).toBeDefined();
    await k.start();
    // No worker thread exists until a worker tool runs: the pool is lazy.
    const before = threadCount();
    const result = await runOne(k, 'ProbeRead', { kind: 'echo' });
    expect(result.isError).toBeUndefined();
    expect((result.metadata as { thread: number }).thread).toBeGreaterThan(0);
    const during = threadCount();
    expect(during).toBeGreaterThan(before);
    // Shutdown destroys the pool: its threads go away.
    await k.shutdown();
    await pollUntil(() => threadCount() < during);
    expect(threadCount()).toBeLessThan(during);
  });

  it('refuses unknown, filtered, incomplete and invalid calls with messages the model can act on', async () => {
    const { kernel: k } = await setup();
    const [unknown, filtered, incomplete, invalid, extra] = await runCalls(
      k,
      [
        call('Grepp', { pattern: 'x' }),
        call('Bash', { command: 'true' }),
        { ...call('Read', {}), inputError: 'Unexpected end of JSON input' },
        call('Read', { file_path: 'a', limit: 'ten' }),
        call('Read', { file_path: 'a', colour: 'red' }),
      ],
      { toolFilter: (name) => name !== 'Bash' },
    );
    expect(text(unknown!)).toContain('Did you mean "Grep"?');
    expect(unknown!.metadata?.code).toBe('ASSISTANT_TOOL_UNKNOWN');
    expect(text(filtered!)).toContain('"Bash" is not available here');
    expect(text(filtered!)).not.toContain('Bash,');
    expect(text(incomplete!)).toContain('arrived incomplete or malformed (Unexpected end of JSON input)');
    expect(text(invalid!)).toContain('"limit" must be integer (got "ten")');
    expect(text(extra!)).toContain('unknown field "colour" (known fields: file_path, offset, limit)');
    for (const r of [unknown, filtered, incomplete, invalid, extra]) expect(r!.isError).toBe(true);
  });

  it('lets beforeToolCall rewrite input (validated again) and refuse calls; afterToolCall post-processes', async () => {
    const hooks = inline('test-hooks', (k) => {
      k.hooks.beforeToolCall.tapPromise('test-hooks', async (c) => {
        if (c.input.kind === 'refuse') throw new Error('not on Fridays');
        if (c.input.kind === 'rewrite') return { ...c, input: { ...c.input, kind: 'echo', ms: 1 } };
        if (c.input.kind === 'break') return { ...c, input: { ms: 'x' } };
        return c;
      });
      k.hooks.afterToolCall.tapPromise('test-hooks', async (result) => ({ ...result, content: [...result.content, { type: 'text', text: 'redacted' }] }));
    });
    const { kernel: k } = await setup([allowAll, probes, hooks]);
    const [refused, rewritten, broken] = await runCalls(k, [call('ProbeRead', { kind: 'refuse' }), call('ProbeRead', { kind: 'rewrite' }), call('ProbeRead', { kind: 'break' })]);
    expect(text(refused!)).toContain('not on Fridays');
    expect(refused!.isError).toBe(true);
    expect(text(rewritten!)).toMatch(/ProbeRead call-\d+ ok\nredacted/);
    expect(text(broken!)).toContain('missing required field "kind"');
  });

  it('denies, asks in one batch, and denies asks when headless; emits permission events', async () => {
    const approvals: number[] = [];
    const policy = inline('test-policy', (k) => {
      k.hooks.permission.tapPromise('test-policy', async (request) => {
        if (request.input.kind === 'deny') return { behavior: 'deny', reason: 'denied by test rule', layer: 'test-policy' };
        if (request.input.kind === 'ask') return { behavior: 'ask', reason: 'needs a person', layer: 'test-policy' };
        return { behavior: 'allow', reason: 'ok', layer: 'test-policy' };
      });
      k.hooks.approval.tapPromise('test-ui', async (pending) => {
        approvals.push(pending.length);
        return pending.map((p, i) => (i === 0 ? { behavior: 'allow', scope: 'once' } : { behavior: 'deny', scope: 'once', message: 'use Grep instead' }));
      });
    });
    const { kernel: interactive, events } = await setup([probes, policy], { headless: false });
    const results = await runCalls(interactive, [call('ProbeRead', { kind: 'deny' }), call('ProbeRead', { kind: 'ask' }), call('ProbeRead', { kind: 'ask' }), call('ProbeRead', { kind: 'echo' })], { agentId: 'agent-7' });
    expect(approvals).toEqual([2]);
    expect(text(results[0]!)).toContain('denied by test rule');
    expect(results[0]!.metadata?.code).toBe('ASSISTANT_TOOL_DENIED');
    expect(results[1]!.isError).toBeUndefined();
    expect(text(results[2]!)).toContain('use Grep instead');
    expect(results[3]!.isError).toBeUndefined();
    const permissionEvents = events.filter((e) => e.type === 'permission');
    expect(permissionEvents.length).toBe(6);
    // Refused calls are shown (and audited) with their key argument, like the calls that ran.
    const starts = new Map(events.flatMap((e) => (e.type === 'tool_start' ? [[e.call.id, e.summary] as const] : [])));
    expect(results.map((r) => starts.get(r.toolCallId))).toEqual(['deny', 'ask', 'ask', 'echo']);
    expect(permissionEvents.every((e) => e.agentId === 'agent-7' && e.sessionId === 'session-1')).toBe(true);
    await interactive.shutdown();

    const headless = await kernelFor(tempDir(), [probes, policy], { headless: true });
    kernel = headless.kernel;
    const [asked] = await runCalls(headless.kernel, [call('ProbeRead', { kind: 'ask' })]);
    expect(text(asked!)).toContain('no one can approve in headless mode');
    expect(approvals).toEqual([2]);
  });

  it('emits tool_start and tool_end for every call, with origin, and returns results in call order', async () => {
    const { kernel: k, events, root } = await setup();
    const file = join(root, 'second-done');
    const calls = [call('ProbeRead', { kind: 'wait-for', file, path: 'x' }), call('ProbeRead', { kind: 'echo', path: 'y' }), call('Nope', {})];
    // The first call finishes only once the main thread has seen the second one end: a fixed
    // finishing order, with no race between a worker's file write and its result's delivery.
    k.hooks.event.tap('test-release', (event) => {
      if (event.type === 'tool_end' && event.call.id === calls[1]!.id) writeFileSync(file, '');
    });
    const results = await runCalls(k, calls, { agentId: 'sub-1' });
    expect(results.map((r) => r.toolCallId)).toEqual(calls.map((c) => c.id));
    const ends = events.filter((e) => e.type === 'tool_end');
    expect(ends.map((e) => (e as { call: { id: string } }).call.id).sort()).toEqual(calls.map((c) => c.id).sort());
    // The second call finished first, yet results keep the model's order.
    const endOrder = ends.map((e) => (e as { call: { id: string } }).call.id);
    expect(endOrder.indexOf(calls[1]!.id)).toBeLessThan(endOrder.indexOf(calls[0]!.id));
    expect(events.filter((e) => e.type === 'tool_start').length).toBe(3);
    expect(events.every((e) => e.agentId === 'sub-1' && e.sessionId === 'session-1')).toBe(true);
    // Each end carries the tool's metadata, which observers (the UI's one-line summaries) read.
    for (const result of results) {
      const end = ends.find((e) => e.type === 'tool_end' && e.call.id === result.toolCallId);
      expect(end && end.type === 'tool_end' && end.metadata).toEqual(result.metadata);
    }
    expect(results[1]!.metadata).toBeDefined();
  });

  it('hands prepare state to the worker', async () => {
    const { kernel: k } = await setup();
    const result = await runOne(k, 'ProbeState', { kind: 'x' });
    expect((result.metadata as Meta).state).toEqual({ seen: 'state-for-x' });
  });
});

describe('scheduler', () => {
  it('runs reads of different resources at the same time (all four meet at a barrier)', async () => {
    const { kernel: k, root } = await setup();
    const dir = join(root, 'barrier');
    mkdirSync(dir);
    const results = await runCalls(k, [1, 2, 3, 4].map((i) => call('ProbeRead', { kind: 'barrier', dir, count: 4, path: `file-${i}` })));
    expect(results.map((r) => (r.metadata as Meta).met)).toEqual([true, true, true, true]);
  });

  it('never overlaps a write with any other call on its resource, and keeps call order', async () => {
    const { kernel: k, root } = await setup();
    const dir = join(root, 'barrier');
    mkdirSync(dir);
    const calls = [
      call('ProbeRead', { kind: 'barrier', dir, count: 3, path: 'a' }),
      call('ProbeRead', { kind: 'barrier', dir, count: 3, path: 'a' }),
      call('ProbeWrite', { kind: 'echo', ms: 50, path: 'a' }),
      call('ProbeRead', { kind: 'echo', path: 'a' }),
      call('ProbeRead', { kind: 'barrier', dir, count: 3, path: 'b' }),
    ];
    const results = await runCalls(k, calls);
    const t = results.map((r) => r.metadata as Meta);
    const write = t[2]!;
    // The two reads of `a` and the later read of `b` ran together (they met at the barrier):
    // `b` did not wait behind the write queued before it.
    expect([t[0]!.met, t[1]!.met, t[4]!.met]).toEqual([true, true, true]);
    // The write began after both earlier reads of `a` ended; the later read of `a` began after it ended.
    expect(t[0]!.end).toBeLessThanOrEqual(write.start);
    expect(t[1]!.end).toBeLessThanOrEqual(write.start);
    expect(t[3]!.start).toBeGreaterThanOrEqual(write.end);
  });

  it('honours the lockSet hook: a call proven read-only runs alongside reads', async () => {
    const readOnly = inline('test-lockset', (k) => {
      k.hooks.lockSet.tap('test-lockset', (c, _definition, context): LockSet | undefined =>
        c.name === 'ProbeWrite' && c.input.kind === 'barrier' ? { reads: [context.projectRoot], writes: [] } : undefined,
      );
    });
    const { kernel: k, root } = await setup([allowAll, probes, readOnly]);
    const dir = join(root, 'barrier');
    mkdirSync(dir);
    const results = await runCalls(k, [call('ProbeRead', { kind: 'barrier', dir, count: 2, path: 'x' }), call('ProbeWrite', { kind: 'barrier', dir, count: 2 })]);
    expect(results.map((r) => (r.metadata as Meta).met)).toEqual([true, true]);
  });

  it('shares one lock table between agents: one agent writing blocks another agent reading the same file', async () => {
    const { kernel: k, events } = await setup();
    const writing = runCalls(k, [call('ProbeWrite', { kind: 'echo', ms: 100, path: 'shared' })], { agentId: 'a' });
    // Agent b asks once agent a's write holds its lock.
    while (!events.some((e) => e.type === 'tool_start' && e.agentId === 'a')) await new Promise((r) => setTimeout(r, 5));
    const [writes, reads] = await Promise.all([writing, runCalls(k, [call('ProbeRead', { kind: 'echo', path: 'shared' })], { agentId: 'b' })]);
    expect((reads[0]!.metadata as Meta).start).toBeGreaterThanOrEqual((writes[0]!.metadata as Meta).end);
  });
});

describe('failures', () => {
  it('turns a throw and a malformed return into error results', async () => {
    const { kernel: k } = await setup();
    const [thrown, bad] = await runCalls(k, [call('ProbeRead', { kind: 'throw' }), call('ProbeRead', { kind: 'bad' })]);
    expect(text(thrown!)).toContain('the probe threw on purpose');
    expect(thrown!.metadata?.code).toBe('ASSISTANT_TOOL_FAILED');
    expect(text(bad!)).toContain('not a tool result');
  });

  it('survives a worker that exits, and the pool heals', async () => {
    const { kernel: k } = await setup();
    const crashed = await runOne(k, 'ProbeRead', { kind: 'exit' });
    expect(crashed.metadata?.code).toBe('ASSISTANT_TOOL_WORKER_CRASHED');
    const after = await runOne(k, 'ProbeRead', { kind: 'echo' });
    expect(after.isError).toBeUndefined();
  });

  it('stops a hanging worker at its timeout, and the pool heals', async () => {
    const { kernel: k } = await setup();
    const hung = await runOne(k, 'ProbeSlow', { kind: 'spin' });
    expect(hung.metadata?.code).toBe('ASSISTANT_TOOL_TIMEOUT');
    expect(text(hung)).toContain('did not finish within 300 ms');
    const [a, b] = await runCalls(k, [call('ProbeRead', { kind: 'echo' }), call('ProbeRead', { kind: 'echo' })]);
    expect([a!.isError, b!.isError]).toEqual([undefined, undefined]);
  });

  it('cancels a batch: the running tool sees its signal, queued calls never start', async () => {
    // A long grace: the probe answers its signal by itself, and a loaded machine must not turn
    // that into a forced stop.
    const { kernel: k, root } = await setup(undefined, { toolRuntime: { maxThreads: 4, abortGraceMs: 20_000 } });
    const dir = join(root, 'started');
    mkdirSync(dir);
    const controller = new AbortController();
    const pending = runCalls(k, [call('ProbeWrite', { kind: 'wait-abort', dir, path: 'p' }), call('ProbeWrite', { kind: 'echo', path: 'p' })], { signal: controller.signal });
    // Abort only once the probe runs inside its worker (it announces itself in `dir`).
    while (readdirSync(dir).length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const [running, queued] = await pending;
    // The probe returned by itself once asked to stop: its own result stands.
    expect(running!.isError).toBeUndefined();
    expect(queued!.metadata?.code).toBe('ASSISTANT_TOOL_ABORTED');
    expect(text(queued!)).toContain('cancelled before it started');
  });
});

describe('idempotency', () => {
  it('returns the recorded result for a replayed call id without running it again', async () => {
    const { kernel: k } = await setup();
    const first = call('ProbeRead', { kind: 'echo' });
    const [a] = await runCalls(k, [first]);
    const [b] = await runCalls(k, [first]);
    expect(b).toEqual(a);
    // Same id in another session is a different call.
    const [c] = await runCalls(k, [first], { sessionId: 'session-2' });
    expect((c!.metadata as Meta).start).not.toBe((a!.metadata as Meta).start);
    // So is the same id from a sub-agent of the same session: each agent's model issues its own ids.
    const [d] = await runCalls(k, [first], { agentId: 'general-1' });
    expect((d!.metadata as Meta).start).not.toBe((a!.metadata as Meta).start);
    const [e] = await runCalls(k, [first], { agentId: 'general-1' });
    expect(e).toEqual(d);
  });

  it('keeps at most 500 results per session', async () => {
    const { kernel: k } = await setup();
    const first = call('ProbeState', { kind: 'one' });
    const [a] = await runCalls(k, [first]);
    const many = Array.from({ length: 500 }, (_, i) => call('Nope', { i }));
    await runCalls(k, many);
    const [again] = await runCalls(k, [first]);
    expect((again!.metadata as Meta).start).not.toBe((a!.metadata as Meta).start);
  });
});

describe('definitions', () => {
  it('rejects tools with invalid names or no implementation at registration', async () => {
    const bad = inline('test-bad', (k) => {
      k.tools.register({ name: 'bad name', description: 'x', inputSchema: {}, access: 'read', risk: { category: 'read' }, module: PROBE } as ToolDefinition);
    });
    await expect(kernelFor(tempDir(), [bad])).rejects.toThrow(/invalid name/);
  });
});
