// The test kit plugin authors use (`assistant/testing`), exercised on its own.
import { existsSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { definePlugin, Stage, type PermissionRequest, type PermissionDecision } from '../../dist/core/index.js';
import { createTestKernel, resultText, startFakeLlm, type TestKernel } from '../../dist/config/test-kit.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A main-thread tool and a tap on each side of it, to see traffic through the pipeline. */
const shout = definePlugin<{ suffix?: string }>({
  name: 'shout',
  optionsSchema: { type: 'object', additionalProperties: false, properties: { suffix: { type: 'string', default: '!' } } },
  apply(kernel, options) {
    kernel.tools.register({
      name: 'Shout',
      description: 'Upper-cases text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      access: 'read',
      risk: { category: 'read' },
      handler: async (input: { text: string }) => ({ content: [{ type: 'text', text: input.text.toUpperCase() + options.suffix }] }),
    });
    kernel.hooks.beforeToolCall.tapPromise('shout', async (call) => (call.name === 'Shout' ? { ...call, input: { text: `${call.input.text} please` } } : call));
    kernel.hooks.permission.tapPromise({ name: 'shout', stage: Stage.POLICY }, async (request) =>
      request.tool === 'Shout' ? { behavior: 'allow', reason: 'shouting is harmless', layer: 'shout' } : undefined,
    );
  },
});

describe('createTestKernel', () => {
  it('applies a plugin object with validated options, runs tool calls through the pipeline and records the hook traffic', async () => {
    t = await createTestKernel({ plugins: [[shout, { suffix: '?!' }]], builtins: false });
    expect(t.kernel.plugins.map((p) => p.name)).toEqual(['shout', 'testing-hook-recorder']);
    const result = await t.callTool('Shout', { text: 'hello' });
    expect(resultText(result)).toBe('HELLO PLEASE?!');
    expect(t.hooks.sequence(['beforeToolCall', 'permission', 'afterToolCall'])).toEqual(['beforeToolCall', 'permission', 'afterToolCall']);
    const before = t.hooks.last('beforeToolCall')!;
    expect(before.args[0]).toMatchObject({ name: 'Shout', input: { text: 'hello' } });
    expect(before.result).toMatchObject({ input: { text: 'hello please' } });
    expect(t.hooks.last('permission')!.result).toEqual({ behavior: 'allow', reason: 'shouting is harmless', layer: 'shout' });
    expect(t.hooks.events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_start', 'tool_end']));
  });

  it('pairs each call with its own outcome when calls of one hook overlap', async () => {
    const gates = new Map<string, (decision: PermissionDecision) => void>();
    const gated = definePlugin({
      name: 'gated',
      apply(kernel) {
        kernel.hooks.permission.tapPromise('gated', (request) => new Promise((resolve) => gates.set(request.tool, resolve)));
      },
    });
    t = await createTestKernel({ plugins: [gated], builtins: false });
    const request = (tool: string): PermissionRequest => ({ tool, input: {}, category: 'read', paths: [], projectRoot: t!.projectRoot, cwd: t!.projectRoot, mode: 'default', headless: true });
    const first = t.kernel.hooks.permission.promise(request('A'));
    const second = t.kernel.hooks.permission.promise(request('B'));
    expect(t.hooks.calls('permission').map((c) => c.settled)).toEqual([false, false]);
    gates.get('B')!({ behavior: 'deny', reason: 'B', layer: 'gated' });
    await second;
    gates.get('A')!({ behavior: 'allow', reason: 'A', layer: 'gated' });
    await first;
    const calls = t.hooks.calls('permission');
    expect(calls.map((c) => [c.args[0].tool, c.result?.behavior])).toEqual([
      ['A', 'allow'],
      ['B', 'deny'],
    ]);
  });

  it('records a failing call with its error', async () => {
    const broken = definePlugin({ name: 'broken', apply: (kernel) => kernel.hooks.turnStart.tapPromise('broken', async () => Promise.reject(new Error('nope'))) });
    t = await createTestKernel({ plugins: [broken], builtins: false });
    await expect(t.kernel.hooks.turnStart.promise({ turn: 1, signal: new AbortController().signal })).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_HOOK_FAILED' });
    expect(t.hooks.last('turnStart')).toMatchObject({ settled: true, error: expect.objectContaining({ plugin: 'broken' }) });
  });

  it('drives a scripted model through the agent loop with the built-in tools and policy', async () => {
    t = await createTestKernel({
      files: { 'notes.txt': 'remember the milk\n' },
      model: {
        turns: [
          { when: { userText: 'notes' }, reply: { text: 'Reading.', toolCalls: [{ id: 'read_1', name: 'Read', input: { file_path: 'notes.txt' } }] } },
          { when: { toolResultFor: 'read_1', toolResultContains: 'remember the milk' }, reply: { text: 'It says: remember the milk.' } },
        ],
      },
    });
    const result = await t.prompt('What do the notes say?');
    expect(result).toMatchObject({ reason: 'completed', text: 'It says: remember the milk.', turns: 2 });
    expect(t.fake!.requests).toHaveLength(2);
    expect(t.hooks.last('permission')!.result).toMatchObject({ behavior: 'allow', layer: 'mode' });
    expect(t.hooks.sequence(['userPrompt', 'turnStart', 'beforeToolCall', 'afterToolCall', 'turnEnd'])).toEqual([
      'userPrompt',
      'turnStart',
      'beforeToolCall',
      'afterToolCall',
      'turnEnd',
      'turnStart',
      'turnEnd',
    ]);
    const session = await t.session();
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('asks the permission hook without running the tool, and builds the context view through the strategy', async () => {
    t = await createTestKernel({ files: { 'a.txt': 'a\n' }, config: { context: { strategy: 'static' } } });
    expect(await t.permission('Read', { file_path: 'a.txt' })).toMatchObject({ behavior: 'allow' });
    expect(await t.permission('Write', { file_path: 'b.txt', content: 'b' })).toMatchObject({ behavior: 'ask' });
    expect(await t.permission('Write', { file_path: 'b.txt', content: 'b' }, { mode: 'plan' })).toMatchObject({ behavior: 'deny', layer: 'mode' });
    expect(existsSync(`${t.projectRoot}/b.txt`)).toBe(false);
    const view = await t.contextView([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], { window: 50_000 });
    expect(view).toMatchObject({ model: 'test-model', budget: { window: 50_000, outputReserve: 8192 } });
    expect(view.tools.map((tool) => tool.name)).toContain('Read');
    expect(t.hooks.calls('context')).toHaveLength(1);
  });

  it('loads a subset of the built-ins, and names unknown ones', async () => {
    t = await createTestKernel({ builtins: ['tools-fs', 'permissions'] });
    expect(t.kernel.plugins.map((p) => p.name)).toEqual(['tools-fs', 'permissions', 'testing-hook-recorder']);
    await expect(createTestKernel({ builtins: ['tools-fss'] })).rejects.toMatchObject({ code: 'ASSISTANT_CONFIG_INVALID', message: expect.stringContaining('no built-in plugin named tools-fss') });
  });

  it('refuses a plugin built for another kernel API, and names close matches for a hook that does not exist', async () => {
    const future = definePlugin({ name: 'future', kernelApi: '^3.0.0', apply: () => undefined });
    await expect(createTestKernel({ plugins: [future], builtins: false })).rejects.toMatchObject({
      code: 'ASSISTANT_PLUGIN_KERNEL_API',
      message: expect.stringContaining('plugin "future" (test) needs kernel API ^3.0.0, but this assistant provides 2.0.0'),
    });
    const typo = definePlugin({
      name: 'typo',
      apply: (kernel) => (kernel.hooks as unknown as Record<string, { tap(name: string, fn: () => void): void }>).permision.tap('typo', () => undefined),
    });
    await expect(createTestKernel({ plugins: [typo], builtins: false })).rejects.toMatchObject({
      code: 'ASSISTANT_HOOK_UNKNOWN',
      plugin: 'typo',
      message: expect.stringContaining('there is no hook "permision" (did you mean "permission"?)'),
    });
  });

  it('keeps sessions out of the user data directory: a temp one unless the test names its own', async () => {
    const filesUnder = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);
    const sessionIn = async (dir: string) => {
      const id = (await t!.session()).info.id;
      return filesUnder(dir).some((f) => f.endsWith(`${id}.jsonl`));
    };
    const named = process.env.ASSISTANT_DATA_DIR!;
    delete process.env.ASSISTANT_DATA_DIR;
    let chosen = '';
    try {
      t = await createTestKernel({ model: { fallback: { text: 'ok' } }, config: { persistence: { store: 'jsonl' } } });
      chosen = process.env.ASSISTANT_DATA_DIR!;
      expect(chosen).toMatch(/assistant-test-data-/);
      expect(chosen.startsWith(realpathSync(tmpdir()))).toBe(true);
      expect((await t.prompt('hi')).text).toBe('ok');
      expect(await sessionIn(chosen)).toBe(true);
      expect((await t.callTool('Read', { file_path: '.assistantrc.json' })).isError).toBeFalsy();
    } finally {
      process.env.ASSISTANT_DATA_DIR = named;
    }
    await t.close();
    // Nothing of this project (its session or its audit log, written at shutdown) lands in the home directory.
    expect(filesUnder(join(process.env.HOME!, '.local')).filter((f) => f.includes(basename(t!.projectRoot)))).toEqual([]);
    expect(filesUnder(chosen).some((f) => f.endsWith('.audit.jsonl'))).toBe(true);
    rmSync(chosen, { recursive: true, force: true });
    // A directory the test names is used as it is.
    t = await createTestKernel({ model: { fallback: { text: 'ok' } }, config: { persistence: { store: 'jsonl' } } });
    await t.prompt('hi');
    expect(process.env.ASSISTANT_DATA_DIR).toBe(named);
    expect(await sessionIn(named)).toBe(true);
  });

  it('removes the temp project and stops the server it started on close, but leaves a server it was given running', async () => {
    t = await createTestKernel({ builtins: false, model: { turns: [] } });
    const { projectRoot, fake } = t;
    expect(existsSync(projectRoot)).toBe(true);
    await t.close();
    t = undefined;
    expect(existsSync(projectRoot)).toBe(false);
    await expect(fetch(`${fake!.url}/_health`)).rejects.toThrow();

    const shared = await startFakeLlm({ fixture: { fallback: { text: 'shared' } } });
    try {
      t = await createTestKernel({ model: shared, builtins: ['provider-anthropic', 'context-static'], config: { context: { strategy: 'static' } } });
      expect((await t.prompt('hi')).text).toBe('shared');
      await t.close();
      t = undefined;
      expect(await (await fetch(`${shared.url}/_health`)).json()).toEqual({ ok: true });
    } finally {
      await shared.close();
    }
  });
});
