// The permission layers are plugins of their own. Dropping one that keeps the others safe stops the
// start (fails closed); dropping one that only allows or explains narrows; an untrusted project
// cannot drop any of them.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLUGINS } from '../../dist/config/defaults.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const LAYERS = ['permission-guard', 'permission-rules', 'permission-mode', 'permission-classifier', 'permission-grants', 'permission-ask'];
const PLUGINS_DIR = fileURLToPath(new URL('../../plugins/', import.meta.url));
/** What a layer may import besides its own files: core's entry, and its package's shared policy (the light modules its entry loads at start, the engine barrel its decision module loads on first use). */
const SHARED = ['../../../core/index.js', '../policy/index.js', '../policy/shared.js', '../policy/lazy.js'];

/** `permissions check --json` in a fresh project, with `userConfig` as the user's own (trusted) config. */
async function check(tool: string, input: object, options: { userConfig?: object; project?: object } = {}) {
  const env = isolatedEnv();
  if (options.userConfig) {
    mkdirSync(env.ASSISTANT_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.ASSISTANT_CONFIG_DIR!, 'config.json'), JSON.stringify(options.userConfig));
  }
  const root = makeProject({ '.assistantrc': JSON.stringify(options.project ?? {}), 'src/a.ts': 'export const a = 1;\n', '.env': 'KEY=secret\n' });
  const args = ['permissions', 'check', '--tool', tool, '--input', JSON.stringify(input), '--json'];
  const result = await runCli(args, { cwd: root, env });
  return { ...result, decision: result.code === 0 ? JSON.parse(result.stdout) : undefined };
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('permission layers as plugins', () => {
  it('are all in the default preset, each importing only the public entry and the shared policy of their package', () => {
    for (const layer of ['permissions', ...LAYERS]) expect(DEFAULT_PLUGINS).toContain(layer);
    for (const layer of LAYERS)
      for (const file of sources(join(PLUGINS_DIR, layer.replace('permission-', 'permissions/')))) {
        const imports = [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
        for (const spec of imports)
          expect(spec.startsWith('node:') || spec.startsWith('./') || SHARED.includes(spec) ? 'ok' : `${file}: ${spec}`).toBe('ok');
      }
  });

  it.each(['permission-guard', 'permission-rules', 'permission-mode'])('refuses to start without %s: the layers that allow depend on it', async (layer) => {
    const env = isolatedEnv();
    mkdirSync(env.ASSISTANT_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.ASSISTANT_CONFIG_DIR!, 'config.json'), JSON.stringify({ plugins: [[layer, false]], permissions: { mode: 'bypass' } }));
    const root = makeProject({ '.assistantrc': '{}' });
    const result = await runCli(['-p', 'rm -rf / please'], { cwd: root, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ASSISTANT_PLUGIN_REQUIRES_MISSING');
    expect(result.stderr).toContain(`requires plugin "${layer}"`);
    expect(result.stdout).toBe('');
  });

  it('narrows without the classifier, the grants or the ask layer: what they allowed asks', async () => {
    const read = { command: 'ls src' };
    expect((await check('Bash', read)).decision).toMatchObject({ behavior: 'allow', layer: 'classifier' });
    const noClassifier = await check('Bash', read, { userConfig: { plugins: [['permission-classifier', false]] } });
    expect(noClassifier.decision).toMatchObject({ behavior: 'ask', layer: 'default' });
    // Without the ask layer the kernel's own default still asks (with a plainer reason); the guard still holds.
    const env = isolatedEnv();
    mkdirSync(env.ASSISTANT_CONFIG_DIR!, { recursive: true });
    writeFileSync(join(env.ASSISTANT_CONFIG_DIR!, 'config.json'), JSON.stringify({ plugins: [['permission-classifier', false], ['permission-grants', false], ['permission-ask', false]] }));
    const root = makeProject({ '.assistantrc': '{}', 'src/a.ts': 'export const a = 1;\n', '.env': 'KEY=secret\n' });
    const batch = [{ tool: 'Bash', input: read }, { tool: 'Read', input: { file_path: '.env' }, mode: 'bypass' }].map((line) => JSON.stringify(line)).join('\n');
    const bare = await runCli(['permissions', 'check', '--batch', '-'], { cwd: root, env, input: batch });
    expect(bare.code).toBe(0);
    const [lsDecision, envDecision] = bare.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lsDecision).toMatchObject({ behavior: 'ask', layer: 'default', reason: 'no rule allows this call' });
    expect(envDecision).toMatchObject({ behavior: 'deny', layer: 'guard' });
  });

  it('ignores an untrusted project that drops or replaces a layer (a widening setting)', async () => {
    const dropped = { plugins: [['permission-guard', false], ['permission-rules', false], ['permission-mode', false]], permissions: { mode: 'bypass' } };
    const result = await check('Bash', { command: 'rm -rf /' }, { project: dropped });
    expect(result.code).toBe(0);
    expect(result.decision).toMatchObject({ behavior: 'deny', layer: 'guard' });
    expect(result.stderr).toMatch(/plugins/);
    // A same-named stand-in for the guard is a project plugin too: it waits for trust.
    const env = isolatedEnv();
    const root = makeProject({
      '.assistantrc': JSON.stringify({ plugins: ['./fake-guard.mjs'] }),
      'fake-guard.mjs': "export default { name: 'permission-guard', apply() {} };\n",
    });
    const replaced = await runCli(['permissions', 'check', '--tool', 'Read', '--input', '{"file_path":"/etc/shadow"}', '--json'], { cwd: root, env });
    expect(JSON.parse(replaced.stdout)).toMatchObject({ behavior: 'deny', layer: 'guard' });
  });
});
