import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

// A plugin written against the public API imports '@assistant-cli/assistant'. These projects live in the system's
// temp folder, outside this repository, so nothing above them can resolve '@assistant-cli/assistant' the usual way.
const plugin = `
import { definePlugin, PluginError, KERNEL_API_VERSION } from '@assistant-cli/assistant';
export default definePlugin({
  name: 'uses-api',
  version: '0.0.1',
  kernelApi: '^' + KERNEL_API_VERSION,
  apply(kernel, options) {
    if (options.refuse) throw new PluginError('ASSISTANT_PLUGIN_INVALID', 'the plugin refused on purpose');
    kernel.hooks.turnStart.tap('uses-api', () => {});
  },
});
`;

function project(config: object, extra: Record<string, string> = {}) {
  return makeProject({
    '.assistantrc.json': JSON.stringify(config),
    'node_modules/assistant-plugin-uses-api/package.json': JSON.stringify({ name: 'assistant-plugin-uses-api', type: 'module', main: 'index.js' }),
    'node_modules/assistant-plugin-uses-api/index.js': plugin,
    ...extra,
  });
}

describe("plugins importing '@assistant-cli/assistant'", () => {
  it('resolve it to the running copy when the project has none installed (a global install)', async () => {
    const dir = project({ plugins: ['assistant-plugin-uses-api'] });
    const result = await runCli(['--trust-project', 'plugins'], { cwd: dir, env: isolatedEnv() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^uses-api@0\.0\.1$/m);
  });

  it("get the running copy even when the project installed another '@assistant-cli/assistant', so error classes are shared", async () => {
    const dir = project(
      { plugins: [['assistant-plugin-uses-api', { refuse: true }]] },
      {
        'node_modules/@assistant-cli/assistant/package.json': JSON.stringify({ name: '@assistant-cli/assistant', version: '0.0.0-other', type: 'module', exports: { '.': './index.js' } }),
        'node_modules/@assistant-cli/assistant/index.js': "throw new Error('the project copy of assistant was imported');\n",
      },
    );
    const result = await runCli(['--trust-project', 'plugins'], { cwd: dir, env: isolatedEnv() });
    expect(result.stderr).not.toContain('project copy');
    // The plugin's own coded error, raised with the running copy's class, reaches the user intact.
    expect(result.stderr).toContain('the plugin refused on purpose');
    expect(result.stderr).toContain('uses-api');
    expect(result.code).not.toBe(0);
  });
});
