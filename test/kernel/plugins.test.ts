import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isolatedEnv, makeProject, writeFiles } from '../support/project.js';

const env = isolatedEnv();

/** A plugin module's source: records its options on the kernel's config via a tool-less hook. */
function pluginSource(name: string, body = '', extra = ''): string {
  return `export default { name: ${JSON.stringify(name)}, version: '1.2.3', ${extra}
  apply(kernel, options) { globalThis.__applied ??= []; globalThis.__applied.push([${JSON.stringify(name)}, options]); ${body} } };\n`;
}

async function boot(dir: string) {
  (globalThis as { __applied?: unknown[] }).__applied = [];
  const config = await loadConfig({ cwd: dir, env });
  return createKernel({ config, headless: true });
}

function applied(): Array<[string, unknown]> {
  return (globalThis as unknown as { __applied: Array<[string, unknown]> }).__applied;
}

describe('plugin loading', () => {
  it('loads a package from the project node_modules by name, and a relative path with options', async () => {
    const dir = makeProject({
      'node_modules/assistant-plugin-hello/package.json': JSON.stringify({ name: 'assistant-plugin-hello', type: 'module', exports: { '.': './src/main.js' } }),
      'node_modules/assistant-plugin-hello/src/main.js': pluginSource('hello', `kernel.hooks.turnStart.tap('hello', () => {});`),
      'tools/local.mjs': pluginSource('local-thing'),
      '.assistantrc': JSON.stringify({ plugins: ['assistant-plugin-hello', ['./tools/local.mjs', { verbose: true }]] }),
    });
    const kernel = await boot(dir);
    expect(applied()).toEqual([['hello', {}], ['local-thing', { verbose: true }]]);
    const hello = kernel.plugins.find((p) => p.name === 'hello')!;
    expect(hello).toMatchObject({ version: '1.2.3', source: join(dir, 'node_modules/assistant-plugin-hello/src/main.js'), hooks: ['turnStart'] });
  });

  it('loads a plugin installed from a tarball made by npm pack', async () => {
    const pkg = makeProject({
      'package.json': JSON.stringify({ name: 'assistant-plugin-packed', version: '0.3.0', type: 'module', main: 'index.js' }),
      'index.js': pluginSource('packed'),
    });
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', pkg], { cwd: pkg, encoding: 'utf8' }).trim().split('\n').pop()!;
    const dir = makeProject({ 'package.json': JSON.stringify({ name: 'proj', private: true }), '.assistantrc.yaml': 'plugins:\n  - assistant-plugin-packed\n' });
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', join(pkg, tarball)], { cwd: dir, stdio: 'ignore' });
    const kernel = await boot(dir);
    expect(kernel.plugins.map((p) => p.name)).toContain('packed');
    expect(kernel.plugins.find((p) => p.name === 'packed')!.source).toBe(join(dir, 'node_modules/assistant-plugin-packed/index.js'));
  });

  it("resolves a package named in the user's global config from the project's node_modules, with the package's version", async () => {
    const globalEnv = isolatedEnv();
    writeFiles(globalEnv.ASSISTANT_CONFIG_DIR!, { 'config.yaml': 'plugins:\n  - assistant-plugin-team\n' });
    const dir = makeProject({
      '.assistantrc': 'limits:\n  maxTurns: 7\n',
      'node_modules/assistant-plugin-team/package.json': JSON.stringify({ name: 'assistant-plugin-team', version: '4.5.6', type: 'module', main: 'index.js' }),
      // No version of its own: `assistant plugins` shows the package's.
      'node_modules/assistant-plugin-team/index.js': "export default { name: 'team', apply() {} };\n",
    });
    const kernel = await createKernel({ config: await loadConfig({ cwd: dir, env: globalEnv }), headless: true });
    expect(kernel.plugins.find((p) => p.name === 'team')).toMatchObject({
      version: '4.5.6',
      source: join(dir, 'node_modules/assistant-plugin-team/index.js'),
      listedIn: join(globalEnv.ASSISTANT_CONFIG_DIR!, 'config.yaml'),
    });
  });

  it('names the package and the fix when a plugin is not installed', async () => {
    const dir = makeProject({ '.assistantrc': 'plugins: [assistant-plugin-missing]\n' });
    const error = await boot(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PLUGIN_NOT_FOUND' });
    expect((error as Error).message).toContain('npm install --save-dev assistant-plugin-missing');
    expect((error as Error).message).toContain(join(dir, '.assistantrc'));
  });

  it('reports a plugin path through a file (ENOTDIR) as not found, with the spec, not as a bare file-system error', async () => {
    const dir = makeProject({ 'p.mjs': 'export default { name: "p", apply() {} };\n', '.assistantrc': 'plugins: [./p.mjs/inner.mjs]\n' });
    const error = await boot(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PLUGIN_NOT_FOUND' });
    expect((error as Error).message).toContain('./p.mjs/inner.mjs');
  });

  it('rejects a module that is not a plugin, and one that throws on import', async () => {
    const notPlugin = makeProject({ 'p.mjs': 'export default { hello: 1 };\n', '.assistantrc': 'plugins: [./p.mjs]\n' });
    await expect(boot(notPlugin)).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_INVALID' });
    const throws = makeProject({ 'p.mjs': 'throw new Error("kaboom at import");\n', '.assistantrc': 'plugins: [./p.mjs]\n' });
    await expect(boot(throws)).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_LOAD_FAILED', message: expect.stringContaining('kaboom at import') });
  });

  it('validates options against optionsSchema before apply, naming the plugin, file and path', async () => {
    const schema = `optionsSchema: { type: 'object', additionalProperties: false, properties: { level: { type: 'integer', minimum: 1, default: 2 }, name: { type: 'string' } } },`;
    const dir = makeProject({ 'p.mjs': pluginSource('strict', '', schema), '.assistantrc': JSON.stringify({ plugins: [['./p.mjs', { level: 0, colour: 'red' }]] }) });
    const error = await boot(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PLUGIN_OPTIONS_INVALID', plugin: 'strict' });
    const message = (error as Error).message;
    expect(message).toContain(join(dir, '.assistantrc'));
    expect(message).toContain('/level: must be >= 1');
    expect(message).toContain('/colour: is not a known key');
    expect(applied()).toEqual([]);

    // Valid options get their defaults filled in.
    writeFiles(dir, { '.assistantrc': JSON.stringify({ plugins: [['./p.mjs', { name: 'x' }]] }) });
    await boot(dir);
    expect(applied()).toEqual([['strict', { name: 'x', level: 2 }]]);
  });

  it('takes options from the plugin config key, overlaid by its plugins entry', async () => {
    const dir = makeProject({
      'p.mjs': pluginSource('keyed', '', `configKey: 'keyed', optionsSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },`),
      '.assistantrc': JSON.stringify({ keyed: { a: 1, b: 1 }, plugins: [['./p.mjs', { b: 2 }]] }),
    });
    await boot(dir);
    expect(applied()).toEqual([['keyed', { a: 1, b: 2 }]]);
    writeFiles(dir, { '.assistantrc': JSON.stringify({ keyed: { a: 'one' }, plugins: ['./p.mjs'] }) });
    await expect(boot(dir)).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_OPTIONS_INVALID', message: expect.stringContaining('/keyed/a: must be number') });
  });

  it('refuses unknown top-level keys, suggesting close matches', async () => {
    const dir = makeProject({ '.assistantrc': 'premissions:\n  mode: plan\n' });
    const error = await boot(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_CONFIG_INVALID' });
    expect((error as Error).message).toContain('/premissions: is not a known key (did you mean "permissions"?)');
  });

  it('names the plugin that throws in apply', async () => {
    const dir = makeProject({ 'p.mjs': pluginSource('grumpy', 'throw new Error("no thanks");'), '.assistantrc': 'plugins: [./p.mjs]\n' });
    const error = await boot(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PLUGIN_APPLY_FAILED', plugin: 'grumpy' });
    expect((error as Error).message).toMatch(/plugin "grumpy" \(.*p\.mjs\) failed while applying: no thanks/);
  });

  it('names the plugin and hook that throw during a hook call', async () => {
    const dir = makeProject({
      'p.mjs': pluginSource('flaky', `kernel.hooks.turnStart.tapPromise('flaky', async () => { throw new Error('disk on fire'); });`),
      '.assistantrc': 'plugins: [./p.mjs]\n',
    });
    const kernel = await boot(dir);
    const error = await kernel.hooks.turnStart.promise({ turn: 1, signal: new AbortController().signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PLUGIN_HOOK_FAILED', plugin: 'flaky', hook: 'turnStart' });
    expect((error as Error).message).toBe('plugin "flaky" failed in hook "turnStart": disk on fire');
  });

  it('gives a helpful error for a hook that does not exist', async () => {
    const dir = makeProject({ 'p.mjs': pluginSource('typo', `kernel.hooks.premission.tap('typo', () => undefined);`), '.assistantrc': 'plugins: [./p.mjs]\n' });
    const error = await boot(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_HOOK_UNKNOWN', plugin: 'typo' });
    expect((error as Error).message).toContain('there is no hook "premission" (did you mean "permission"?)');
  });

  it('refuses a plugin built for an incompatible kernel API, and a missing required plugin', async () => {
    const old = makeProject({ 'p.mjs': pluginSource('ancient', '', `kernelApi: '^0.4.0',`), '.assistantrc': 'plugins: [./p.mjs]\n' });
    const error = await boot(old).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ASSISTANT_PLUGIN_KERNEL_API', plugin: 'ancient' });
    expect((error as Error).message).toContain('needs kernel API ^0.4.0, but this assistant provides 2.0.0');
    const ok = makeProject({ 'p.mjs': pluginSource('modern', '', `kernelApi: '>=2.0.0 <3',`), '.assistantrc': 'plugins: [./p.mjs]\n' });
    await expect(boot(ok)).resolves.toBeDefined();
    const needy = makeProject({ 'p.mjs': pluginSource('needy', '', `requires: ['permissions-xyz'],`), '.assistantrc': 'plugins: [./p.mjs]\n' });
    await expect(boot(needy)).rejects.toMatchObject({ code: 'ASSISTANT_PLUGIN_REQUIRES_MISSING', message: expect.stringContaining('permissions-xyz') });
  });
});
