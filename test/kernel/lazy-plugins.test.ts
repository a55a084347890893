// Built-in plugins register everything at start but import their heavy parts on first use (issue #18):
// a one-shot answer loads none of them, and each still works when first used.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyImport } from '../../dist/core/index.js';
import { startFakeLlm, type FakeLlm } from '../../dist/core/testing/index.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';

const TRACE = fileURLToPath(new URL('../providers/fixtures/trace-imports.mjs', import.meta.url));
/** tsc's tree of the CLI: the plugins' modules by name (the bundle keeps lazy parts in chunks of their own). */
const CLI = fileURLToPath(new URL('./fixtures/tsc-cli.mjs', import.meta.url));

/** Modules of parts loaded on first use, by the plugin that owns them. */
const LAZY: Record<string, string[]> = {
  mcp: ['mcp/client.js', 'mcp/manager.js', 'mcp/connection.js', 'mcp/sdk.js', 'mcp/cli.js', 'mcp/serve/server.js'],
  'provider-openai': ['provider-openai/wire.js', 'provider-openai/translate.js', 'provider-openai/convert.js'],
  'store-redis': ['store-redis/store.js', 'store-redis/connection.js', 'store-redis/spool.js'],
  checkpoints: ['checkpoints/rewind-run.js', 'checkpoints/rewind.js', 'checkpoints/restore.js'],
  agents: ['agents/sub-agent.js', 'agents/run-agent.js', 'agents/report.js'],
  'hooks-shell': ['hooks-shell/dispatch.js', 'hooks-shell/run-command.js'],
  'session-commands': ['session-commands/resume.js', 'session-commands/render.js', 'session-commands/show.js', 'session-commands/markdown.js'],
  replay: ['replay/replay-parts.js', 'replay/replayer.js', 'replay/digest.js', 'replay/recording.js'],
  'project-init': ['project-init/prompt-parts.js', 'project-init/manifests.js', 'project-init/prompt.js'],
  'tool-websearch': ['tool-websearch/search.js', 'tool-websearch/json-backend.js', 'tool-websearch/results.js'],
  'surface-serve': ['surface-serve/serve-command.js', 'surface-serve/server.js'],
  'surface-acp': ['surface-acp/stdio.js', 'surface-acp/server.js'],
};

/** Runs the built CLI (tsc's tree) with import tracing (asynchronously: the fake server shares this process). */
async function traced(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const file = join(tempDir(), 'imports.txt');
  const child = spawn(process.execPath, ['--import', TRACE, CLI, ...args], { cwd, env: { ...env, TRACE_IMPORTS_FILE: file }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const plugins = readFileSync(file, 'utf8')
    .split('\n')
    .filter((url) => url.includes('/dist/plugins/'))
    .map((url) => url.slice(url.indexOf('/dist/plugins/') + '/dist/plugins/'.length));
  return { status, stdout, stderr, plugins };
}

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { fallback: { text: 'a short answer' } } });
});
afterAll(() => fake.close());

describe('lazily loaded plugin parts', () => {
  const env = () => isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });

  it('a one-shot answer applies every plugin but imports none of their lazy parts', async () => {
    const run = await traced(['-p', 'Say something short.', '--trust-project'], makeProject({ '.git/HEAD': 'ref: refs/heads/main\n' }), env());
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('a short answer');
    for (const [plugin, parts] of Object.entries(LAZY)) {
      expect(run.plugins, `${plugin} was applied`).toContain(`${plugin}/index.js`);
      expect(run.plugins.filter((m) => parts.includes(m)), `${plugin}'s lazy parts`).toEqual([]);
    }
    // The selected provider's wire format is loaded by the request itself.
    expect(run.plugins).toContain('provider-anthropic/wire.js');
  });

  it('each part loads and works on first use: mcp list, sessions show, sessions rewind', async () => {
    const project = makeProject({ '.git/HEAD': 'ref: refs/heads/main\n' });
    const environment = env();
    const first = await traced(['-p', 'Remember this.', '--trust-project'], project, environment);
    expect(first.status, first.stderr).toBe(0);

    const mcp = await traced(['mcp', 'list'], project, environment);
    expect(mcp.status, mcp.stderr).toBe(0);
    expect(mcp.stdout).toContain('No MCP servers are configured');
    expect(mcp.plugins).toContain('mcp/cli.js');

    const listed = await traced(['sessions', 'list', '--json'], project, environment);
    expect(listed.status, listed.stderr).toBe(0);
    const [session] = JSON.parse(listed.stdout) as Array<{ id: string }>;
    expect(session?.id).toBeTruthy();

    const shown = await traced(['sessions', 'show', session!.id], project, environment);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(session!.id.slice(0, 8));
    expect(shown.plugins).toContain('session-commands/render.js');

    const rewind = await traced(['sessions', 'rewind', session!.id], project, environment);
    expect(rewind.status, rewind.stderr).toBe(0);
    expect(rewind.stdout).toContain('Remember this.');
    expect(rewind.plugins).toContain('checkpoints/rewind-run.js');
  });
});

describe('lazyImport', () => {
  it('shares one import among concurrent first uses', async () => {
    let imports = 0;
    const load = lazyImport('some-plugin', 'engine', async () => {
      imports++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { value: 42 };
    });
    const [a, b, c] = await Promise.all([load(), load(), load()]);
    expect(imports).toBe(1);
    expect(a).toBe(b);
    expect(c.value).toBe(42);
  });

  it('turns a failed import into ASSISTANT_PLUGIN_LOAD_FAILED naming the plugin, and stays failed', async () => {
    let imports = 0;
    const load = lazyImport('some-plugin', 'engine', async () => {
      imports++;
      throw new Error('Cannot find module ./engine.js');
    });
    for (let i = 0; i < 2; i++)
      await expect(load()).rejects.toMatchObject({
        code: 'ASSISTANT_PLUGIN_LOAD_FAILED',
        plugin: 'some-plugin',
        message: expect.stringContaining('plugin "some-plugin" could not load its engine: Cannot find module ./engine.js'),
      });
    expect(imports).toBe(1);
  });
});
