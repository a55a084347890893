// Config validation says everything at once, names the file that set the bad value and the key it
// was probably meant to be, and reports a misspelt selection (provider, store, strategy) at start.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { SessionError } from '../../dist/core/kernel/errors.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { isolatedEnv, makeProject } from '../support/project.js';

async function kernelFor(files: Record<string, string>, checkSelections = true) {
  const dir = makeProject(files);
  const config = await loadConfig({ cwd: dir, env: isolatedEnv(), noUserConfig: true });
  return { dir, kernel: () => createKernel({ config, headless: true, logLevel: 'silent', checkSelections }) };
}

async function failure(files: Record<string, string>): Promise<{ dir: string; error: { code: string; message: string; file?: string } }> {
  const { dir, kernel } = await kernelFor(files);
  const error = await kernel().then(
    (k) => k.shutdown().then(() => undefined),
    (e: unknown) => e as { code: string; message: string; file?: string },
  );
  expect(error, 'expected the kernel to refuse the configuration').toBeDefined();
  return { dir, error: error! };
}

describe('plugin option errors', () => {
  it('name the file that set the unknown key, and the key it is closest to', async () => {
    const { dir, error } = await failure({ '.assistantrc.json': JSON.stringify({ permissions: { alow: ['Read'] } }) });
    expect(error.code).toBe('ASSISTANT_PLUGIN_OPTIONS_INVALID');
    expect(error.message).toContain(`in ${join(dir, '.assistantrc.json')}`);
    expect(error.message).not.toContain('in defaults');
    expect(error.message).toContain('/permissions/alow: is not a known key (did you mean "allow"?)');
    expect(error.file).toBe(join(dir, '.assistantrc.json'));
  });

  it('suggest name for a misspelt provider key', async () => {
    const { error } = await failure({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic', nmae: 'x' } }) });
    expect(error.message).toContain('/provider/nmae: is not a known key (did you mean "name"?)');
  });
});

describe('every problem at once', () => {
  it('an unknown top-level key does not hide a bad provider option, nor one bad plugin another', async () => {
    const { error } = await failure({ '.assistantrc.json': JSON.stringify({ foo: 1, provider: { name: 'anthropic', nmae: 'x' } }) });
    expect(error.code).toBe('ASSISTANT_CONFIG_INVALID');
    expect(error.message).toContain('/foo: is not a known key');
    expect(error.message).toContain('ASSISTANT_PROVIDER_OPTIONS_INVALID');
    expect(error.message).toContain('/provider/nmae');

    const two = await failure({ '.assistantrc.json': JSON.stringify({ fooo: 1, permissions: { alow: [] }, memory: { nope: true } }) });
    expect(two.error.message).toContain('/fooo: is not a known key');
    expect(two.error.message).toContain('/permissions/alow');
    expect(two.error.message).toContain('/memory/nope');
  });

  it('reports a disable that matches no plugin, with the plugin it probably meant', async () => {
    const { dir, error } = await failure({ '.assistantrc.json': JSON.stringify({ plugins: [['context-compactionn', false]] }) });
    expect(error.code).toBe('ASSISTANT_CONFIG_INVALID');
    expect(error.message).toContain(join(dir, '.assistantrc.json'));
    expect(error.message).toContain('"context-compactionn"');
    expect(error.message).toContain('did you mean "context-compaction"');
  });

  it('still accepts disabling a plugin that is listed', async () => {
    const { kernel } = await kernelFor({ '.assistantrc.json': JSON.stringify({ plugins: [['project-map', false]] }) });
    const k = await kernel();
    expect(k.plugins.map((p) => p.name)).not.toContain('project-map');
    await k.shutdown();
  });
});

describe('selections by name', () => {
  const teamStore = `export default { name: "team-store", apply(k) { k.hooks.sessionStore.for("team-db").tap("team-store", () => ({ name: "team-db", close: async () => {} })); } };`;
  const teamStrategy = `import { tapContextStrategy } from ${JSON.stringify(new URL('../../dist/core/kits/context/index.js', import.meta.url).href)};
export default { name: "team-context", apply(k) { tapContextStrategy(k, "summarize-team", async (view) => view); } };`;

  it('a misspelt store is reported at start with the loaded stores, third-party ones included', async () => {
    const { error } = await failure({ 'store.mjs': teamStore, '.assistantrc.json': JSON.stringify({ plugins: ['./store.mjs'], persistence: { store: 'team-bd' } }) });
    expect(error.code).toBe('ASSISTANT_STORE_UNKNOWN');
    expect(error.message).toContain('did you mean "team-db"');
    expect(error.message).toMatch(/available: .*jsonl.*team-db/);
  });

  it('a misspelt strategy is reported at start with the loaded strategies, third-party ones included', async () => {
    const { error } = await failure({
      'strategy.mjs': teamStrategy,
      '.assistantrc.json': JSON.stringify({ plugins: ['./strategy.mjs'], context: { strategy: 'sumarize-team' } }),
    });
    expect(error.code).toBe('ASSISTANT_CONTEXT_STRATEGY_UNKNOWN');
    expect(error.message).toContain('did you mean "summarize-team"');
    expect(error.message).toMatch(/available: compaction, rolling, static, summarize-team/);
    const builtIn = await failure({ '.assistantrc.json': JSON.stringify({ context: { strategy: 'rollin' } }) });
    expect(builtIn.error.message).toContain('did you mean "rolling"');
  });

  /** A kernel whose `flaky` store (plugin `flaky-store`) claims leases and fails every append with `failure`. */
  async function flakyKernel(failure: () => Error) {
    const { kernel } = await kernelFor({ '.assistantrc.json': JSON.stringify({ persistence: { store: 'flaky' } }) }, false);
    const k = await kernel();
    k.hooks.sessionStore.for('flaky').tap('flaky-store', () => ({
      name: 'flaky',
      acquire: async (sessionId: string) => ({ sessionId, release: async () => undefined }),
      append: async () => {
        throw failure();
      },
      close: async () => undefined,
    }) as never);
    return k;
  }

  it("a store's own coded error reaches the session's opener with its code and the store's plugin", async () => {
    const k = await flakyKernel(() => new SessionError('ASSISTANT_STORE_UNAVAILABLE', 'the disk is full'));
    const error = await openSession(k, { projectRoot: k.projectRoot, mode: 'default' }).then(() => undefined, (e: unknown) => e as SessionError);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).toMatchObject({ code: 'ASSISTANT_STORE_UNAVAILABLE', plugin: 'flaky-store', message: 'the disk is full' });
    await k.shutdown();
  });

  it("a store's uncoded failure becomes ASSISTANT_STORE_UNAVAILABLE naming the store, its plugin and the method", async () => {
    const k = await flakyKernel(() => new TypeError('cannot read properties of undefined'));
    const error = await openSession(k, { projectRoot: k.projectRoot, mode: 'default' }).then(() => undefined, (e: unknown) => e as SessionError);
    expect(error).toMatchObject({ code: 'ASSISTANT_STORE_UNAVAILABLE', plugin: 'flaky-store' });
    expect(error!.message).toContain('the "flaky" session store (plugin "flaky-store") failed in append: cannot read properties of undefined');
    expect(error!.cause).toBeInstanceOf(TypeError);
    await k.shutdown();
  });

  it('without the CLI check, a misspelt store still surfaces with its own code when a session opens', async () => {
    const { kernel } = await kernelFor({ '.assistantrc.json': JSON.stringify({ persistence: { store: 'jsnol' } }) }, false);
    const k = await kernel();
    const error = await openSession(k, { projectRoot: k.projectRoot, mode: 'default' }).then(() => undefined, (e: unknown) => e as { code: string; message: string });
    expect(error).toMatchObject({ code: 'ASSISTANT_STORE_UNKNOWN' });
    expect(error!.message).toContain('did you mean "jsonl"');
    await k.shutdown();
  });
});
