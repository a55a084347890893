import { describe, expect, it } from 'vitest';
import type { SlashCommandContext } from '../../dist/core/index.js';
import { stripAnsi } from '../../dist/plugins/ui-terminal/terminal/width.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { appFor, bootKernel, scriptedConfig } from './support.js';

const env = isolatedEnv();
const context: SlashCommandContext = { print: () => undefined };

const PRICING = `export default { name: 'pricing-test', apply(k) { k.hooks.commands.tap('pricing-test', (r) => {
  r.addSlash({ name: 'cost', description: 'cost with prices', run: () => 'priced' });
  r.addSlash({ name: 'hello', description: 'says hello', usage: '[name]', run: (a) => 'hello ' + a });
}); } };`;

// context-commands contributes a /cost of its own; left out here so the UI's fallback is what gets replaced.
const WITH_PRICING = [['context-commands', false], './pricing.mjs'];

async function setup(files: Record<string, string> = {}, config: Parameters<typeof scriptedConfig>[0] = {}) {
  const dir = makeProject({ '.assistantrc': scriptedConfig(config), ...files });
  const kernel = await bootKernel(dir, env);
  const app = await appFor(kernel, env);
  // The registered commands reach the app the interactive hook started; here the app is built directly.
  const run = async (name: string, args = '') => stripAnsi(String((await app.runBuiltin(name, args, context)) ?? ''));
  return { dir, kernel, app, run };
}

describe('slash commands', () => {
  it('are contributed through the commands hook, and a plugin that contributes the same name wins', async () => {
    const { kernel } = await setup({ 'pricing.mjs': PRICING }, { plugins: WITH_PRICING });
    const names = kernel.commands.listSlash().map((c) => c.name);
    for (const name of ['help', 'clear', 'cost', 'model', 'mode', 'permissions', 'plugins', 'config', 'details', 'exit', 'hello']) expect(names).toContain(name);
    expect(await kernel.commands.slash('cost')!.run('', context)).toBe('priced');
    expect(await kernel.commands.slash('help')!.run('', context)).toBe('/help works in the interactive UI');
  });

  it('/help lists every plugin\'s commands and the keys, newline key included', async () => {
    const { run } = await setup({ 'pricing.mjs': PRICING }, { plugins: WITH_PRICING });
    const help = await run('help');
    expect(help).toMatch(/\/hello \[name\]\s+says hello/);
    expect(help).toMatch(/\/details \[n\]\s+Input and full output/);
    expect(help).toMatch(/Ctrl\+J, Alt\+Enter, \\\+Enter\s+new line/);
  });

  it('/cost shows tokens in, out, cache read and write per model, after a switch with /model too', async () => {
    const { app, run } = await setup();
    expect(await run('cost')).toBe('No tokens used yet in this session.');
    await app.runner.run('hello there');
    expect(await run('model', 'scripted-2')).toMatch(/Model set to scripted-2/);
    expect(app.model).toBe('scripted-2');
    await app.runner.run('again', { model: app.model });
    const cost = (await run('cost')).split('\n');
    expect(cost[1]).toMatch(/^model\s+input\s+output\s+cache read\s+cache write\s+cost$/);
    expect(cost[2]).toMatch(/^scripted-1\s+1\.2k\s+\d+\s+800\s+100\s+n\/a$/);
    expect(cost[3]).toMatch(/^scripted-2\s+1\.2k\s+\d+\s+800\s+100\s+n\/a$/);
    expect(cost[4]).toMatch(/^total\s+2\.4k\s+\d+\s+1\.6k\s+200\s+n\/a$/);
  });

  it('/mode switches the permission mode the next tool call sees; bypass only when started in it', async () => {
    const { app, run } = await setup();
    expect(await run('mode', 'plan')).toMatch(/plan mode/);
    expect(app.runner.session.mode).toBe('plan');
    expect(await run('mode', 'bypass')).toMatch(/only be chosen at start/);
    expect(app.runner.session.mode).toBe('plan');
    expect(await run('mode', 'nonsense')).toMatch(/unknown mode/);
  });

  it('/permissions shows the rules with the file that set them, and this session\'s grants', async () => {
    const { dir, app, run } = await setup({}, { permissions: { allow: ['Bash(npm test)'], deny: ['Read(.env)'] } });
    await app.runner.session.record({ type: 'grant', grant: { rule: 'Edit(src/**)', time: Date.now() } });
    const out = await run('permissions');
    expect(out).toContain(`Bash(npm test)  ${dir}/.assistantrc`);
    expect(out).toContain('Read(.env)');
    expect(out).toMatch(/Granted this session\n\s+Edit\(src\/\*\*\)/);
  });

  it('/config shows each value with its source, /plugins the loaded plugins and their hooks', async () => {
    const { dir, run } = await setup();
    const config = await run('config');
    expect(config).toContain(`provider.name = "scripted"  ${dir}/.assistantrc`);
    expect(config).toContain('limits.maxTurns = 100  defaults');
    const plugins = await run('plugins');
    expect(plugins).toMatch(/ui-terminal 1\.0\.0 · defaults\n\s+.*interactive/);
    expect(plugins).toContain('scripted-provider');
  });

  it('/clear starts a new session with an empty history', async () => {
    const { kernel, app, run } = await setup();
    await app.runner.run('remember this');
    const before = app.runner.session.info.id;
    const out = await run('clear');
    expect(out).toMatch(/^New conversation \(session [0-9a-f]{8}\)\.$/);
    expect(app.runner.session.info.id).not.toBe(before);
    expect(kernel.session!.info.id).toBe(app.runner.session.info.id);
    expect(app.runner.session.messages).toHaveLength(0);
  });

  it('/details shows the input and full output of a tool call', async () => {
    const { kernel, app, run } = await setup();
    expect(await run('details')).toBe('no tool calls yet');
    kernel.hooks.approval.tapPromise({ name: 'test-approver', stage: -1 }, async (items) => items.map(() => ({ behavior: 'allow' as const, scope: 'once' as const })));
    await app.runner.run('Run the slow command');
    const details = (await run('details')).split('\n');
    expect(details[0]).toMatch(/^Bash sleep 4; echo slow-done\s+\[bash-1\]$/);
    expect(details).toContain('    "command": "sleep 4; echo slow-done"');
    expect(details).toContain('  slow-done');
    expect(details).toContain('  exit code 0');
    expect(await run('details', '5')).toBe('there are only 1 tool calls so far');
  });
});
