// `assistant config show` (issue #19): the provider, model and base URL a run would use, each with
// where it came from (a base URL from ANTHROPIC_BASE_URL / OPENAI_BASE_URL included), and the
// built-in price table folded into one line unless --all.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const show = (dir: string, args: string[], env: Record<string, string> = {}) => runCli(['config', 'show', '--trust-project', ...args], { cwd: dir, env: isolatedEnv(env) });

describe('assistant config show', () => {
  it('shows the effective model and a base URL from the environment, and folds the prices', async () => {
    const dir = makeProject();
    const r = await show(dir, [], { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/proxy' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      ['effective:', '  provider = anthropic    # defaults', '  model = claude-sonnet-4-6    # the default of the anthropic provider', '  base URL = http://127.0.0.1:9/proxy    # environment (ANTHROPIC_BASE_URL)'].join('\n'),
    );
    const pricing = r.stdout.split('\n').filter((l) => l.startsWith('pricing'));
    expect(pricing).toHaveLength(1);
    expect(pricing[0]).toMatch(/^pricing = built-in prices of \d+ models \(anthropic, openai; config show --all lists them\) {4}# defaults$/);
    expect(r.stdout.split('\n').length).toBeLessThan(70);

    const all = await show(dir, ['--all'], { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/proxy' });
    expect(all.stdout.split('\n').filter((l) => l.startsWith('pricing.')).length).toBeGreaterThan(30);
  });

  it('says which setting chose the model and the base URL: flags, a config file, the default', async () => {
    const dir = makeProject({ '.assistantrc': JSON.stringify({ provider: { name: 'openai', baseURL: 'http://127.0.0.1:9/v1' }, pricing: { openai: { 'house-model': { input: 1, output: 2 } } } }) });
    const r = await show(dir, ['--model', 'house-model'], { OPENAI_BASE_URL: 'http://127.0.0.1:9/ignored' });
    expect(r.stdout).toContain(`  provider = openai    # ${join(dir, '.assistantrc')}`);
    expect(r.stdout).toContain('  model = house-model    # flags');
    expect(r.stdout).toContain(`  base URL = http://127.0.0.1:9/v1    # provider.baseURL (${join(dir, '.assistantrc')})`);
    // A price a config file sets is listed; the built-in ones stay folded.
    expect(r.stdout).toContain(`pricing.openai.house-model.input = 1    # ${join(dir, '.assistantrc')}`);

    const json = JSON.parse((await show(dir, ['--json'], { OPENAI_API_KEY: 'k' })).stdout);
    expect(json.effective).toEqual({ provider: 'openai', providerSource: join(dir, '.assistantrc'), model: 'gpt-4.1', modelSource: 'the default of the openai provider', baseURL: 'http://127.0.0.1:9/v1', baseURLSource: `provider.baseURL (${join(dir, '.assistantrc')})` });
    expect(Object.keys(json.values.pricing.anthropic).length).toBeGreaterThan(3);

    const plain = await show(makeProject(), [], { ANTHROPIC_API_KEY: 'k' });
    expect(plain.stdout).toContain('  base URL = https://api.anthropic.com    # default');
  });

  it('says why no provider could be made, and still shows the rest', async () => {
    const r = await show(makeProject(), []);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  problem: no API key for provider "anthropic": set the environment variable ANTHROPIC_API_KEY');
    expect(r.stdout).toContain('limits.maxTurns = 100    # defaults');
  });
});
