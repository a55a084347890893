import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const support = new URL('./support/scripted-provider.js', import.meta.url).href;
const providerFile = `import { scriptedProvider } from '${support}';
const s = scriptedProvider({ reply: (request) => [{ type: 'text', text: 'memory says: ' + (request.system.find((x) => x.id === 'memory')?.text.includes('TABS-ONLY') ? 'tabs' : 'nothing') }] });
export default s.plugin;`;
const project = (rc: Record<string, unknown>, files: Record<string, string> = {}) =>
  makeProject({ 'provider.mjs': providerFile, '.assistantrc': JSON.stringify({ plugins: ['./provider.mjs'], provider: { name: 'scripted', model: 'claude-sonnet-4-5' }, ...rc }), ...files });

describe('the CLI with context settings', () => {
  it('runs a prompt with the default strategy and the project memory in the system prompt', async () => {
    const dir = project({}, { 'AGENTS.md': 'TABS-ONLY indentation.' });
    const r = await runCli(['--trust-project', '-p', 'hello'], { cwd: dir, env: isolatedEnv() });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('memory says: tabs\n');
    expect(r.code).toBe(0);
  });

  it('refuses limits.maxCostUsd for a model without a price, naming the fix', async () => {
    const r = await runCli(['--trust-project', '-p', 'hello'], { cwd: project({ limits: { maxCostUsd: 0.5 } }), env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no price is known for scripted/claude-sonnet-4-5');
    expect(r.stderr).toContain('pricing.scripted');
  });

  it('names a misspelled strategy', async () => {
    const r = await runCli(['--trust-project', '-p', 'hello'], { cwd: project({ context: { strategy: 'rolingg' } }), env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('context.strategy is "rolingg" but no loaded plugin provides that strategy');
  });

  it('rejects invalid strategy options with the JSON path', async () => {
    const r = await runCli(['--trust-project', '-p', 'hello'], { cwd: project({ context: { compaction: { threshold: 2 } } }), env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ASSISTANT_PLUGIN_OPTIONS_INVALID: invalid options for plugin "context-compaction" in .*\.assistantrc:\n\s+\/context\/compaction\/threshold: must be <= 0\.95/);
  });
});
