// The tool pool's growth policy (issue #18): quick calls share one thread, a call that keeps running
// makes room for queued work on a second thread, and calls still queued in the pool stop, close and
// settle without ever starting.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { ToolPool } from '../../dist/core/tools/pool.js';
import { tempDir } from '../support/project.js';
import { PATIENT_MS, pollUntil } from '../support/wait.js';
import { PROBE, allowAll, call, inline, kernelFor, runCalls, text } from './helpers.js';

type Meta = { thread: number };

/** A tool module that returns at once: whatever the machine's load, sixteen of them stay far below the grace. */
const QUICK = new URL('./fixtures/quick.worker.mjs', import.meta.url).href;

const probes = inline('test-pool-probes', (kernel) => {
  const schema = { type: 'object', properties: { kind: { type: 'string' }, ms: { type: 'integer' }, path: { type: 'string' }, file: { type: 'string' }, dir: { type: 'string' } }, required: ['kind'] };
  const base = { inputSchema: schema, module: PROBE, risk: { category: 'read' as const }, summarize: (i: Record<string, unknown>) => `${i.kind}` };
  const reads = (i: Record<string, unknown>) => ({ reads: [String(i.path ?? '.')], writes: [] });
  kernel.tools.register({ ...base, name: 'ProbeRead', description: 'reads', access: reads });
  kernel.tools.register({ ...base, name: 'ProbeSlow', description: 'times out', access: reads, timeoutMs: 300 });
  kernel.tools.register({ ...base, module: QUICK, name: 'Quick', description: 'returns at once', access: reads });
});

const kernels: Kernel[] = [];
const pools: ToolPool[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
  for (const pool of pools.splice(0)) await pool.close();
});

async function kernelWith(maxThreads: number, abortGraceMs = 200) {
  const root = tempDir();
  const made = await kernelFor(root, [allowAll, probes], { toolRuntime: { maxThreads, abortGraceMs } });
  kernels.push(made.kernel);
  return { root, ...made };
}

function poolOf(maxThreads: number): ToolPool {
  const pool = new ToolPool({ maxThreads });
  pools.push(pool);
  return pool;
}

let ids = 0;
/** A probe task as the runtime would build it. */
function probeTask(input: Record<string, unknown>) {
  return { tool: 'ProbeRead', callId: `pool-${++ids}`, input, projectRoot: '/', cwd: '/', options: {}, state: {}, timeoutMs: 120_000 };
}

/** A pool of `maxThreads` and a file whose creation releases the calls that wait for it. */
function heldPool(maxThreads: number) {
  const pool = poolOf(maxThreads);
  const file = join(tempDir(), 'release');
  return { pool, file, release: releaseLater(file), hold: () => pool.run(PROBE, 'run', probeTask({ kind: 'wait-for', file })) };
}

/** Creates `file` after `ms` unless the test did first: a held call never outlives its test. */
function releaseLater(file: string, ms = PATIENT_MS) {
  const timer = setTimeout(() => writeFileSync(file, ''), ms);
  return () => {
    clearTimeout(timer);
    writeFileSync(file, '');
  };
}

describe('growth', () => {
  it('runs sixteen quick calls of one batch on one thread', async () => {
    const pool = poolOf(4);
    const results = await Promise.all(Array.from({ length: 16 }, () => pool.run(QUICK, 'run', probeTask({})).result));
    expect(results.every((r) => r.isError === undefined)).toBe(true);
    expect(pool.threads).toBe(1);

    // The same through the runtime: every call ran on the same thread.
    const { kernel } = await kernelWith(4);
    const parts = await runCalls(kernel, Array.from({ length: 16 }, (_, i) => call('Quick', { kind: 'quick', path: `f${i}` })));
    expect(parts.every((p) => p.isError === undefined)).toBe(true);
    expect(new Set(parts.map((p) => (p.metadata as Meta).thread)).size).toBe(1);
  });

  it('adds a thread for a queued call while a long call keeps running', async () => {
    const { pool, file, release, hold } = heldPool(4);
    const long = hold();
    const quick = await pool.run(PROBE, 'run', probeTask({ kind: 'echo' })).result;
    // The quick call finished while the long one was still held: it ran on a second thread.
    expect(existsSync(file)).toBe(false);
    expect(pool.threads).toBe(2);
    release();
    const held = await long.result;
    expect((held.metadata as Meta).thread).not.toBe((quick.metadata as Meta).thread);
  });

  it('the same through the runtime: the quick call ends before the long one is released', async () => {
    const { kernel, root } = await kernelWith(4);
    const file = join(root, 'release');
    const release = releaseLater(file);
    const calls = [call('ProbeRead', { kind: 'wait-for', file, path: 'a' }), call('ProbeRead', { kind: 'echo', path: 'b' })];
    let endedWhileHeld: boolean | undefined;
    kernel.hooks.event.tap('test-release', (event) => {
      if (event.type !== 'tool_end' || event.call.id !== calls[1]!.id) return;
      endedWhileHeld = !existsSync(file);
      release();
    });
    const [held, quick] = await runCalls(kernel, calls);
    expect(endedWhileHeld).toBe(true);
    expect((held!.metadata as Meta).thread).not.toBe((quick!.metadata as Meta).thread);
  });

  it('spreads a batch of calls that each take a while over a second thread', async () => {
    // Eight 10 ms calls: none alone outlasts the grace, their queue does (eight 1 MB Reads are like this).
    const pool = poolOf(4);
    const results = await Promise.all(Array.from({ length: 8 }, () => pool.run(PROBE, 'run', probeTask({ kind: 'echo', ms: 10 })).result));
    expect(results.every((r) => r.isError === undefined)).toBe(true);
    expect(pool.threads).toBeGreaterThanOrEqual(2);
  });

  it('never grows past maxThreads', async () => {
    const { pool, release, hold } = heldPool(2);
    const held = [hold(), hold()];
    const queued = pool.run(PROBE, 'run', probeTask({ kind: 'echo' }));
    let done = false;
    void queued.result.then(() => (done = true));
    // Both held calls run (the second on a thread of its own), the third waits for one of them.
    await pollUntil(() => pool.threads === 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(done).toBe(false);
    expect(pool.threads).toBe(2);
    release();
    await Promise.all([...held.map((h) => h.result), queued.result]);
    expect(pool.threads).toBe(2);
  });
});

describe('calls queued in the pool', () => {
  it('a cancelled batch: the queued call never starts and reports the cancel', async () => {
    // One thread, so the second call stays in the pool's queue; a long grace so the running probe
    // answers its signal by itself.
    const { kernel, root } = await kernelWith(1, 20_000);
    const dir = join(root, 'started');
    mkdirSync(dir);
    const controller = new AbortController();
    const pending = runCalls(kernel, [call('ProbeRead', { kind: 'wait-abort', dir, path: 'a' }), call('ProbeRead', { kind: 'echo', path: 'b' })], { signal: controller.signal });
    await pollUntil(() => readdirSync(dir).length > 0);
    controller.abort();
    const [running, queued] = await pending;
    expect(running!.isError).toBeUndefined();
    expect(queued!.metadata?.code).toBe('ASSISTANT_TOOL_ABORTED');
    expect(text(queued!)).toContain('was cancelled');
  });

  it('a queued call past its time limit times out without starting', async () => {
    const { kernel, root } = await kernelWith(1);
    const file = join(root, 'release');
    const release = releaseLater(file);
    const calls = [call('ProbeRead', { kind: 'wait-for', file, path: 'a' }), call('ProbeSlow', { kind: 'echo', path: 'b' })];
    kernel.hooks.event.tap('test-release', (event) => {
      if (event.type === 'tool_end' && event.call.id === calls[1]!.id) release();
    });
    const [held, slow] = await runCalls(kernel, calls);
    expect(held!.isError).toBeUndefined();
    expect(slow!.metadata?.code).toBe('ASSISTANT_TOOL_TIMEOUT');
    expect(slow!.metadata).not.toHaveProperty('thread');
  });

  it('requestStop and terminate of a queued call settle it at once; the running call is untouched', async () => {
    const { pool, file, release, hold } = heldPool(1);
    const long = hold();
    const stopped = pool.run(PROBE, 'run', probeTask({ kind: 'echo' }));
    const terminated = pool.run(PROBE, 'run', probeTask({ kind: 'echo' }));
    stopped.requestStop('aborted');
    terminated.terminate();
    await expect(stopped.result).rejects.toThrow(/stopped before a worker took the call \(aborted\)/);
    await expect(terminated.result).rejects.toMatchObject({ name: 'AbortError' });
    expect(existsSync(file)).toBe(false);
    release();
    expect((await long.result).isError).toBeUndefined();
    // The pool goes on: a later call runs.
    expect((await pool.run(PROBE, 'run', probeTask({ kind: 'echo' })).result).isError).toBeUndefined();
  });

  it('close() settles the running call and every queued one', async () => {
    const root = tempDir();
    const pool = new ToolPool({ maxThreads: 1 });
    const file = join(root, 'never');
    const calls = [pool.run(PROBE, 'run', probeTask({ kind: 'wait-for', file })), ...[1, 2, 3].map(() => pool.run(PROBE, 'run', probeTask({ kind: 'echo' })))];
    const settled = Promise.allSettled(calls.map((c) => c.result));
    // Close once the long call runs in its worker, so the others are queued behind it.
    await pollUntil(() => pool.threads === 1);
    await pool.close();
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toContain('the tool pool shut down');
    expect(pool.threads).toBe(0);
  });

  it('shutting the kernel down mid-batch gives every call a result', async () => {
    const { kernel, root } = await kernelWith(1);
    const dir = join(root, 'started');
    mkdirSync(dir);
    const pending = runCalls(kernel, [call('ProbeRead', { kind: 'wait-abort', dir, path: 'a' }), call('ProbeRead', { kind: 'echo', path: 'b' }), call('ProbeRead', { kind: 'echo', path: 'c' })]);
    await pollUntil(() => readdirSync(dir).length > 0);
    await kernel.shutdown();
    const results = await pending;
    expect(results).toHaveLength(3);
    for (const result of results.slice(1)) {
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('the tool pool shut down');
    }
  });
});
