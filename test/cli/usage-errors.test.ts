// One error format on the command line: usage mistakes, mistyped subcommands, provider failures and
// the doctor all end as `CODE: message` with a non-zero exit, and nothing reaches the model by mistake.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

// An endpoint that refuses connections: a request that gets sent fails fast, never hangs.
const unreachable = { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };
const quickRetries = 'provider:\n  name: anthropic\n  retries:\n    attempts: 1\n    initialDelayMs: 0\n    jitter: 0\n';

async function storedSessions(cwd: string, env: NodeJS.ProcessEnv): Promise<unknown[]> {
  const r = await runCli(['sessions', 'list', '--all', '--json'], { cwd, env });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as unknown[];
}

describe('usage errors', () => {
  it("prints commander's complaints as ASSISTANT_USAGE: message, exit 2", async () => {
    const r = await runCli(['--foo'], { cwd: makeProject(), env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe("ASSISTANT_USAGE: unknown option '--foo'");
    expect(r.stderr).not.toMatch(/^error:/m);
  });

  it('prints with --debug a stack trace that points into the TypeScript sources, not the minified bundle', async () => {
    const cwd = makeProject({ '.assistantrc.json': '{ not json' });
    const plain = await runCli(['-p', 'hi'], { cwd, env: isolatedEnv() });
    expect(plain.stderr).toMatch(/^ASSISTANT_CONFIG_PARSE: /);
    expect(plain.stderr).not.toMatch(/\n\s+at /);
    const debug = await runCli(['--debug', '-p', 'hi'], { cwd, env: isolatedEnv() });
    expect(debug.code).toBe(plain.code);
    expect(debug.stderr).toMatch(/\n\s+at \S+ \(\S+\/config\/load\.ts:\d+:\d+\)/);
    expect(debug.stderr).not.toMatch(/dist\/bundle\//);
  });

  it('names the near subcommand of a mistyped one', async () => {
    const r = await runCli(['config', 'valdate'], { cwd: makeProject(), env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`ASSISTANT_USAGE: unknown command 'valdate'; did you mean "validate"?`);
  });

  it('refuses a mistyped subcommand instead of sending it to the model, and stores no session', async () => {
    const env = isolatedEnv(unreachable);
    const dir = makeProject({ '.assistantrc': quickRetries });
    for (const argv of [['sesions', 'list'], ['-p', 'sesions', 'list'], ['Sessions', 'list'], ['doctr'], ['trsut']]) {
      const r = await runCli(['--trust-project', ...argv], { cwd: dir, env });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^ASSISTANT_USAGE: unknown command "\S+"; did you mean "(sessions|doctor|trust)"\?/);
    }
    expect(await storedSessions(dir, env)).toEqual([]);
  });

  it('takes words after -- (or a quoted prompt) as a prompt, even when they look like a mistyped command', async () => {
    const env = isolatedEnv(unreachable);
    const dir = makeProject({ '.assistantrc': quickRetries });
    for (const argv of [['-p', '--', 'sesions', 'list'], ['-p', 'sesions list']]) {
      const r = await runCli(['--trust-project', ...argv], { cwd: dir, env, timeoutMs: 120_000 });
      // It went to the (unreachable) provider: a provider error, not a usage error.
      expect(r.stderr, argv.join(' ')).toMatch(/^ASSISTANT_PROVIDER_NETWORK: /m);
      expect(r.code).toBe(3);
    }
  });
});

describe('provider failures on the command line', () => {
  it('print CODE: message, with tries and retries counted consistently', async () => {
    const env = isolatedEnv(unreachable);
    const dir = makeProject({ '.assistantrc': quickRetries });
    const r = await runCli(['--trust-project', '-p', 'hello'], { cwd: dir, env, timeoutMs: 120_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^ASSISTANT_PROVIDER_NETWORK: .*\(gave up after 2 tries: the first and 1 retry; provider\.retries\.attempts is 1\)$/m);
    expect(r.stderr).not.toMatch(/^error:/m);
  });
});

describe('misspelt selections on the command line', () => {
  it('a misspelt store stops the run at start (exit 2) with a suggestion, before anything is sent or written', async () => {
    const env = isolatedEnv(unreachable);
    const dir = makeProject({ '.assistantrc': `${quickRetries}persistence:\n  store: jsnol\n` });
    const r = await runCli(['--trust-project', '-p', 'hello'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ASSISTANT_STORE_UNKNOWN: no loaded plugin provides the session store "jsnol" .*\(did you mean "jsonl"\?\)/);
    expect(r.stderr).not.toContain('ASSISTANT_PROVIDER_NETWORK');
  });

  it('a misspelt strategy and an unknown key are reported together (exit 2)', async () => {
    const dir = makeProject({ '.assistantrc': 'context:\n  strategy: rollin\nfoo: 1\n' });
    const r = await runCli(['--trust-project', 'config', 'validate'], { cwd: dir, env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^ASSISTANT_CONFIG_INVALID: the configuration has 2 problems:/);
    expect(r.stderr).toContain('/foo: is not a known key');
    expect(r.stderr).toContain('ASSISTANT_CONTEXT_STRATEGY_UNKNOWN: context.strategy is "rollin"');
    expect(r.stderr).toContain('did you mean "rolling"');
  });
});

describe('assistant doctor', () => {
  it('fails (exit 1) when the selected provider cannot run, and says why', async () => {
    const r = await runCli(['doctor'], { cwd: makeProject(), env: isolatedEnv() });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL\s+provider: anthropic: ASSISTANT_PROVIDER_NOT_CONFIGURED: /m);
    expect(r.stdout).not.toMatch(/^ok\s+selected provider/m);
  });

  it('passes when the selected provider can run', async () => {
    const r = await runCli(['doctor'], { cwd: makeProject(), env: isolatedEnv(unreachable) });
    expect(r.stdout).toMatch(/^ok\s+provider: anthropic/m);
    expect(r.code).toBe(0);
  });
});
