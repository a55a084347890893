// A call too small for a thread hop runs on the main thread (ToolDefinition.inline, issue #18): the
// same module, export and task as in the pool, with the same result and the same way to stop it;
// Read takes that path for a regular file of at most 32 KiB.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel, ToolContext, ToolDefinition } from '../../dist/core/index.js';
import { tempDir } from '../support/project.js';
import { PATIENT_MS, pollUntil } from '../support/wait.js';
import { PROBE, allowAll, call, inline, kernelFor, runCalls, text } from './helpers.js';

type Meta = { thread: number };

const probes = inline('test-inline-probes', (kernel) => {
  const schema = { type: 'object', properties: { kind: { type: 'string' }, dir: { type: 'string' }, here: { type: 'boolean' } }, required: ['kind'] };
  const base = { inputSchema: schema, module: PROBE, risk: { category: 'read' as const }, access: 'read' as const };
  kernel.tools.register({ ...base, name: 'Probe', description: 'inline when asked', inline: (input: Record<string, unknown>) => input.here === true });
  kernel.tools.register({
    ...base,
    name: 'ProbeThrows',
    description: 'a predicate that throws',
    inline: () => {
      throw new Error('no answer');
    },
  });
});

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

async function kernelWith(root = tempDir()) {
  const made = await kernelFor(root, [allowAll, probes], { toolRuntime: { maxThreads: 2 } });
  kernels.push(made.kernel);
  return { root, ...made };
}

describe('calls that run inline', () => {
  it('run on the main thread when the tool says so, in the pool otherwise, with the same result', async () => {
    const { kernel } = await kernelWith();
    const [here, there, unsure] = await runCalls(kernel, [call('Probe', { kind: 'echo', here: true }, 'c-here'), call('Probe', { kind: 'echo' }, 'c-there'), call('ProbeThrows', { kind: 'echo' }, 'c-unsure')]);
    expect((here!.metadata as Meta).thread).toBe(0);
    expect((there!.metadata as Meta).thread).toBeGreaterThan(0);
    // A predicate that throws is a no: the pool.
    expect((unsure!.metadata as Meta).thread).toBeGreaterThan(0);
    expect(text(here!)).toBe('Probe c-here ok');
    expect(text(there!)).toBe('Probe c-there ok');
  });

  it('hear a cancel through their signal, as a worker does', async () => {
    const { kernel } = await kernelWith();
    const dir = tempDir();
    const controller = new AbortController();
    const pending = runCalls(kernel, [call('Probe', { kind: 'wait-abort', dir, here: true })], { signal: controller.signal });
    await pollUntil(() => readdirSync(dir).some((name) => name.startsWith('running-')), PATIENT_MS);
    controller.abort();
    const [part] = await pending;
    // The tool itself returned once its signal aborted (its own result, from the main thread): without
    // the signal it would have been cut off at the grace period, with an error and no metadata.
    expect(text(part!)).toMatch(/^Probe call-\d+ ok$/);
    expect((part!.metadata as Meta).thread).toBe(0);
  });
});

describe("Read's choice", () => {
  const contextFor = (projectRoot: string) => ({ projectRoot, cwd: projectRoot }) as ToolContext;

  it('takes regular files of at most 32 KiB inline, from the project root, and nothing else', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'small.ts'), 'x'.repeat(32 * 1024));
    writeFileSync(join(root, 'large.ts'), 'x'.repeat(32 * 1024 + 1));
    mkdirSync(join(root, 'folder'));
    const { kernel } = await kernelWith(root);
    const read = kernel.tools.get('Read') as ToolDefinition & { inline: (input: Record<string, unknown>, context: ToolContext) => boolean };
    const here = (file_path: unknown) => read.inline({ file_path }, contextFor(root));
    expect(here('small.ts')).toBe(true);
    expect(here(join(root, 'small.ts'))).toBe(true);
    expect(here('large.ts')).toBe(false);
    expect(here('folder')).toBe(false);
    expect(here('missing.ts')).toBe(false);
    expect(here(42)).toBe(false);
    // A FIFO or device is never taken inline (a read of it could block the main thread).
    expect(here('/dev/zero')).toBe(false);
  });

  it('reads the same text inline as in the pool', async () => {
    const root = tempDir();
    const body = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') + '\n';
    writeFileSync(join(root, 'small.ts'), body);
    writeFileSync(join(root, 'large.ts'), body + 'y'.repeat(40 * 1024) + '\n');
    const { kernel } = await kernelWith(root);
    const [small, large] = await runCalls(kernel, [call('Read', { file_path: 'small.ts' }), call('Read', { file_path: 'large.ts', limit: 40 })]);
    expect(small!.isError).toBeUndefined();
    expect(large!.isError).toBeUndefined();
    // The first 40 lines are the same file content, numbered the same way, whichever thread read them.
    const numbered = (part: typeof small) => text(part!).split('\n').filter((line) => /^\s*\d+\s*[→\t|]/.test(line)).slice(0, 40);
    expect(numbered(small)).toHaveLength(40);
    expect(numbered(large)).toEqual(numbered(small));
  });
});
