// A model request through the built CLI never loads Node's bundled undici (~50 ms of CPU, ~12 MiB):
// the providers hand the SDKs the kit's fetch on node:http, and the SDK bundles bind Headers,
// Response, FormData and Request to the kit's classes (config/bundle-sdks.mjs). Issue #18.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from './helpers.js';

const REPORT = fileURLToPath(new URL('./fixtures/report-undici.mjs', import.meta.url));
const KIT = new URL('../../dist/bundle/core~kits~provider~index.js', import.meta.url).href;

/** Runs a one-shot of the built CLI; resolves its output and whether undici was loaded. */
async function oneShot(provider: 'anthropic' | 'openai', options: { files?: Record<string, string>; args?: string[] } = {}) {
  const file = join(tempDir(), 'undici.json');
  const env = isolatedEnv({
    NODE_OPTIONS: `--import ${REPORT}`,
    REPORT_UNDICI_FILE: file,
    ...(provider === 'anthropic' ? { ANTHROPIC_BASE_URL: fake.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' } : { OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: 'test-key' }),
  });
  const run = await runCli(['--provider', provider, ...(options.args ?? []), '-p', 'hello'], { cwd: makeProject(options.files), env });
  const { undici, zlib, crypto } = JSON.parse(readFileSync(file, 'utf8')) as { undici: boolean; zlib: boolean; crypto: boolean };
  return { ...run, undici, zlib, crypto };
}

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { fallback: { text: 'answered without undici' } } });
});
afterAll(() => fake.close());

describe('provider HTTP without undici', () => {
  it.each(['anthropic', 'openai'] as const)('a %s one-shot answers and never loads undici', async (provider) => {
    const run = await oneShot(provider);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('answered without undici');
    expect(run.undici).toBe(false);
    // Nor node:zlib (~1.2 ms): the bundles bind it lazily, and the one prompt's checkpoint stores no content.
    expect(run.zlib).toBe(false);
    // Nor node:crypto (~1.4 ms): bound lazily too, and nothing a one-shot does needs it.
    expect(run.crypto).toBe(false);
  });

  it.each(['anthropic', 'openai'] as const)('a %s one-shot retries a 429 with retry-after and a reset, still without undici', async (provider) => {
    fake.setFixture({ turns: [{ faults: [{ status: 429, retryAfter: 0 }, { type: 'reset_before_headers' }], reply: { text: 'answered after faults' } }] });
    fake.reset();
    try {
      const run = await oneShot(provider);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('answered after faults');
      expect(fake.requests.length).toBe(3);
      expect(run.undici).toBe(false);
    } finally {
      fake.setFixture({ fallback: { text: 'answered without undici' } });
    }
  });

  it('importing the provider kit loads neither node:http nor the web streams: the first request does', () => {
    const script = `await import(${JSON.stringify(KIT)}); const l = process.moduleLoadList; console.log(JSON.stringify(['NativeModule http', 'NativeModule internal/webstreams/readablestream', 'NativeModule internal/deps/undici/undici'].filter((m) => l.includes(m))));`;
    expect(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))).toEqual([]);
  });

  it('provider.httpClient "platform" sends through Node\'s fetch (which loads undici)', async () => {
    const files = { '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic', httpClient: 'platform' } }) };
    const run = await oneShot('anthropic', { files, args: ['--trust-project'] });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('answered without undici');
    expect(run.undici).toBe(true);
  });

  it('an untrusted project cannot switch the HTTP client (a setting that needs trust)', async () => {
    const files = { '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic', httpClient: 'platform' } }) };
    const run = await oneShot('anthropic', { files });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('/provider/httpClient');
    expect(run.undici).toBe(false);
  });
});
