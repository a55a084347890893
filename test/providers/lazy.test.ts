// Start-up stays lazy: loading the built-in provider plugins and creating a provider imports no SDK.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from './helpers.js';

const TRACE = fileURLToPath(new URL('./fixtures/trace-imports.mjs', import.meta.url));
const BOOT = fileURLToPath(new URL('./fixtures/boot-provider.mjs', import.meta.url));
/** An SDK as installed, or the build's single-file bundle of it (dist/vendor/, beside the runtime's own CommonJS packages). */
const SDKS = /node_modules\/(@anthropic-ai\/sdk|openai|gpt-tokenizer)\/|\/dist\/vendor\/(anthropic-sdk|openai)\./;

/** Runs node with import tracing (asynchronously: the fake server shares this process); returns the resolved module URLs and the output. */
async function traced(args: string[], env: NodeJS.ProcessEnv = isolatedEnv(), cwd = makeProject()) {
  const file = join(tempDir(), 'imports.txt');
  const child = spawn(process.execPath, ['--import', TRACE, ...args], { cwd, env: { ...env, TRACE_IMPORTS_FILE: file } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const urls = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  return { urls, sdkUrls: urls.filter((u) => SDKS.test(u)), status, stdout, stderr };
}

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { fallback: { text: 'hello lazily' } } });
});
afterAll(() => fake.close());

describe('lazy provider SDKs', () => {
  it('assistant --help and assistant plugins apply the provider plugins but load no SDK', async () => {
    const help = await traced([CLI, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: assistant');
    expect(help.sdkUrls).toEqual([]);
    // Applied, with their providers registered (the built CLI takes them from dist/bundle/runtime.cjs, no file of their own).
    const plugins = await traced([CLI, 'plugins']);
    expect(plugins.status).toBe(0);
    expect(plugins.stdout).toMatch(/^provider-anthropic@.*\n.*\n\s+hooks: provider\.anthropic$/m);
    expect(plugins.stdout).toMatch(/^provider-openai@.*\n.*\n\s+hooks: provider\.openai$/m);
    expect(plugins.sdkUrls).toEqual([]);
  });

  it.each(['anthropic', 'openai'])('creating the %s provider imports no SDK; the first request does', async (name) => {
    const url = name === 'anthropic' ? fake.anthropicBaseURL : fake.openaiBaseURL;
    const env = isolatedEnv({ FAKE_URL: url });
    const created = await traced([BOOT, name], env);
    expect(created.status, created.stderr).toBe(0);
    expect(created.sdkUrls).toEqual([]);

    const requested = await traced([BOOT, name, '--request'], env);
    expect(requested.status, requested.stderr).toBe(0);
    expect(requested.stdout).toBe('hello lazily');
    expect(requested.sdkUrls.some((u) => u.includes(name === 'anthropic' ? '/dist/vendor/anthropic-sdk.cjs' : '/dist/vendor/openai.cjs'))).toBe(true);
  });

  it.each(['anthropic', 'openai'])('%s SDK debug output goes to stderr through the logger, never to stdout', async (name) => {
    const url = name === 'anthropic' ? fake.anthropicBaseURL : fake.openaiBaseURL;
    const env = isolatedEnv({ FAKE_URL: url, BOOT_LOG_LEVEL: 'debug', ANTHROPIC_LOG: 'debug', OPENAI_LOG: 'debug' });
    const run = await traced([BOOT, name, '--request'], env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('hello lazily');
    expect(run.stderr).toMatch(new RegExp(`\\[debug\\] assistant:provider-${name}: .*request`, 'i'));
  });
});
