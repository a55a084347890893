import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { DEFAULT_PLUGINS } from '../../dist/config/defaults.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();
const boot = async (dir: string) => createKernel({ config: await loadConfig({ cwd: dir, env }), headless: true });
const systemOf = (kernel: Awaited<ReturnType<typeof boot>>) => kernel.hooks.systemPrompt.promise([], { kind: 'turn' });

describe('built-in plugins', () => {
  it('boots every built-in of the default preset through the plugin loader', async () => {
    const kernel = await boot(makeProject());
    expect(kernel.plugins.map((p) => p.name).sort()).toEqual([...DEFAULT_PLUGINS].sort());
    for (const p of kernel.plugins) expect(p.listedIn).toBe('defaults');
  });

  it('can be disabled by name', async () => {
    const kernel = await boot(makeProject({ '.assistantrc': JSON.stringify({ plugins: [['system-prompt', false]] }) }));
    expect(kernel.plugins.map((p) => p.name)).not.toContain('system-prompt');
    expect((await systemOf(kernel)).map((s) => s.id)).not.toContain('instructions');
  });

  it('can be configured by name, through its plugins entry or its config key', async () => {
    const byEntry = await boot(makeProject({ '.assistantrc': JSON.stringify({ plugins: [['system-prompt', { instructions: 'Be a pirate.' }]] }) }));
    expect((await systemOf(byEntry))[0]).toEqual({ id: 'instructions', text: 'Be a pirate.' });
    const byKey = await boot(makeProject({ '.assistantrc': 'systemPrompt:\n  append: Always answer in French.\n' }));
    expect((await systemOf(byKey))[0]!.text).toMatch(/You are assistant[\s\S]*\n\nAlways answer in French\.$/);
  });

  it('can be replaced by a plugin of the same name', async () => {
    const dir = makeProject({
      'mine.mjs': `export default { name: 'system-prompt', apply(k) { k.hooks.systemPrompt.tap('system-prompt', (s) => [...s, { id: 'mine', text: 'custom' }]); } };`,
      '.assistantrc': 'plugins: [./mine.mjs]\n',
    });
    const kernel = await boot(dir);
    const entry = kernel.plugins.filter((p) => p.name === 'system-prompt');
    expect(entry).toHaveLength(1);
    expect(entry[0]!.source).toBe(join(dir, 'mine.mjs'));
    expect((await systemOf(kernel)).filter((s) => s.id !== 'project-map')).toEqual([{ id: 'mine', text: 'custom' }]);
  });
});
