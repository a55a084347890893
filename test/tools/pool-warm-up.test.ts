// A worker tool's thread boots while the model still streams the call (issue #18): the runtime
// warms the pool on the provider's `tool_call_start`, so the call finds its thread up and its
// module loaded, and nothing starts a second thread or loads the module twice.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Piscina } from 'piscina';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { ToolPool } from '../../dist/core/tools/pool.js';
import { tempDir } from '../support/project.js';
import { PATIENT_MS, pollUntil } from '../support/wait.js';
import { allowAll, call, inline, kernelFor, runCalls } from './helpers.js';

const MARKS = new URL('./fixtures/marks-load.worker.mjs', import.meta.url).href;
type Meta = { thread: number };

const kernels: Kernel[] = [];
const pools: ToolPool[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
  for (const pool of pools.splice(0)) await pool.close();
  delete process.env.ASSISTANT_TEST_LOAD_MARKS;
});

/** A fresh marks file, named to the workers started from now on. */
function marksFile(): string {
  const file = join(tempDir(), 'loads');
  process.env.ASSISTANT_TEST_LOAD_MARKS = file;
  return file;
}
const loads = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(Number) : []);

const marking = inline('test-marking-tool', (kernel) => {
  const schema = { type: 'object', properties: {}, required: [] };
  kernel.tools.register({ name: 'Marks', description: 'marks its loads', inputSchema: schema, module: MARKS, risk: { category: 'read' }, access: () => ({ reads: ['.'], writes: [] }) });
  kernel.tools.register({ name: 'Inline', description: 'runs on the main thread', inputSchema: schema, risk: { category: 'read' }, access: 'read', handler: async () => ({ content: [{ type: 'text', text: 'inline' }] }) });
  kernel.tools.register({ name: 'MarksHere', description: 'a worker tool whose calls run inline', inputSchema: schema, module: MARKS, inline: () => true, risk: { category: 'read' }, access: 'read' });
});

const toolCallStart = (name: string) => ({ type: 'model' as const, event: { type: 'tool_call_start' as const, id: `warm-${name}`, name } });

describe('warming the tool pool', () => {
  it('boots one thread and loads the module before any call', async () => {
    const file = marksFile();
    const pool = new ToolPool({ maxThreads: 4 });
    pools.push(pool);
    pool.warm(MARKS);
    pool.warm(MARKS); // already warming: nothing more
    await pollUntil(() => loads(file).length === 1, PATIENT_MS);
    expect(pool.threads).toBe(1);

    const result = await pool.run(MARKS, 'run', { tool: 'Marks', callId: 'c1', input: {}, projectRoot: '/', cwd: '/', options: {}, state: {}, timeoutMs: 60_000 }).result;
    expect(result.isError).toBeUndefined();
    expect((result.metadata as Meta).thread).toBe(loads(file)[0]);
    pool.warm(MARKS); // a thread is live: nothing
    expect(loads(file)).toHaveLength(1);
    expect(pool.threads).toBe(1);
  });

  it('settles a warm-up the pool closes before it finished', async () => {
    const pool = new ToolPool({ maxThreads: 2 });
    pool.warm(MARKS);
    await pool.close();
    expect(pool.threads).toBe(0);
  });

  // piscina loads a thread's entry with require() first, and Node 20 aborts the whole process when
  // a thread is terminated while require() instantiates an ES module: closing a pool whose warm-up
  // was still loading brought the CLI down (a CI run, tsc's tree). The entry is CommonJS in both trees.
  it('starts its threads from a CommonJS entry, and closing it while they load never brings the process down', async () => {
    const pool = new ToolPool({ maxThreads: 2 });
    pools.push(pool);
    pool.warm(MARKS);
    await pollUntil(() => pool.threads === 1, PATIENT_MS);
    const created = (pool as unknown as { created: Piscina }).created;
    expect(created.options.filename).toMatch(/\/dist\/core\/tools\/worker-entry\.cjs$/);

    const script = `const { ToolPool } = await import(${JSON.stringify(new URL('../../dist/core/tools/pool.js', import.meta.url).href)});
      for (let i = 0; i < 30; i++) {
        const pool = new ToolPool({ maxThreads: 2 });
        pool.warm(${JSON.stringify(MARKS)});
        await new Promise((resolve) => setTimeout(resolve, (i * 7) % 60));
        await pool.close();
      }
      process.stdout.write('closed 30');`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: PATIENT_MS * 2 });
    expect(stdout).toBe('closed 30');
  });

  it('starts on the model announcing a worker tool, not a main-thread tool', async () => {
    const file = marksFile();
    const { kernel } = await kernelFor(tempDir(), [allowAll, marking], { toolRuntime: { maxThreads: 4 } });
    kernels.push(kernel);

    // A tool that runs on the main thread, and one nobody registered: nothing to warm, nothing breaks.
    kernel.hooks.event.call({ ...toolCallStart('Inline'), agentId: 'main', sessionId: 's' });
    kernel.hooks.event.call({ ...toolCallStart('Nope'), agentId: 'main', sessionId: 's' });
    const inline = await runCalls(kernel, [call('Inline', {})]);
    expect(inline[0]!.isError).toBeUndefined();
    expect(loads(file)).toEqual([]);

    // A worker tool whose calls may run inline (small Reads): no thread for it; its call loads the module on this thread.
    kernel.hooks.event.call({ ...toolCallStart('MarksHere'), agentId: 'main', sessionId: 's' });
    const [here] = await runCalls(kernel, [call('MarksHere', {})]);
    expect((here!.metadata as Meta).thread).toBe(0);
    expect(loads(file)).toEqual([0]);

    kernel.hooks.event.call({ ...toolCallStart('Marks'), agentId: 'main', sessionId: 's' });
    await pollUntil(() => loads(file).length === 2, PATIENT_MS);
    const [part] = await runCalls(kernel, [call('Marks', {})]);
    expect(part!.isError).toBeUndefined();
    expect((part!.metadata as Meta).thread).toBe(loads(file)[1]);
    expect(loads(file)).toHaveLength(2);
  });
});
