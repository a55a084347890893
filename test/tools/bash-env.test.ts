// What a command's environment holds: credentials are removed by default (by name, any case, and
// by value), the rest passes; the tool-bash `environment` option changes the policy. Checked with
// printenv through the real Bash tool.
import { chmodSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { kernelFor, runOne, text } from './helpers.js';

const SECRETS: Record<string, string> = {
  GITHUB_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  REDIS_URL: 'redis://:hunter2@cache.internal:6379/0',
  DB_CONN: 'postgres://app:s3cret@db.internal/app',
  my_api_key: 'lower-case-name',
  NPM_CONFIG__AUTH: 'dXNlcjpwYXNz',
  DB_PASS: 'pass-word',
  MYSQL_PWD: 'mysql-pw',
  GH_PAT: 'pat-value',
  SESSION_COOKIE: 'sid=abc',
  PGPASSWORD: 'pg-pw',
  DOCKER_CREDENTIALS: 'creds',
  SLACK_SIGNING_SECRET: 'slack',
  SENTRY_DSN: 'https://abc@o1.ingest.sentry.io/1',
  PLAIN_LOOKING: 'xoxb-1234567890-abcdefghij',
  CI_JOB_JWT: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  SQL_CONNECTION: 'Server=db.internal;Database=app;User Id=app;Password=s3cret;',
  STORAGE: 'DefaultEndpointsProtocol=https;AccountName=x;AccountKey=abc123==;',
  SSHPASS: 'ssh-pass',
  GPG_PASSPHRASE: 'phrase',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
  EXTRA_HEADER: 'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345',
  ANTHROPIC_API_KEY: 'sk-ant-provider',
};
const KEPT: Record<string, string> = { ASSISTANT_ENV_PLAIN: 'plain', BUILD_MODE: 'debug', PUBLIC_URL: 'https://example.com/path' };

const saved = new Map<string, string | undefined>();
const kernels: Kernel[] = [];
beforeAll(() => {
  for (const [name, value] of Object.entries({ ...SECRETS, ...KEPT })) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
});
afterAll(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
  for (const [name, value] of saved) value === undefined ? delete process.env[name] : (process.env[name] = value);
});

async function printenv(options: Record<string, unknown> | undefined, sandbox: 'off' | 'auto' = 'off'): Promise<Map<string, string>> {
  const plugins = options ? [['tool-bash', options]] : [];
  const { kernel } = await kernelFor(makeProject({}), undefined, { config: { sandbox, plugins } as never });
  kernels.push(kernel);
  const result = await runOne(kernel, 'Bash', { command: 'printenv' });
  expect(result.isError).toBeFalsy();
  return new Map(text(result).split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

describe('the environment of Bash commands', () => {
  it.each(['off', 'auto'] as const)('removes whatever looks like a credential and keeps the rest (sandbox %s)', async (sandbox) => {
    const env = await printenv(undefined, sandbox);
    for (const name of Object.keys(SECRETS)) expect(env.has(name), name).toBe(false);
    for (const [name, value] of Object.entries(KEPT)) expect(env.get(name), name).toBe(value);
    expect(env.get('PATH')).toBe(process.env.PATH);
    expect(env.get('GIT_PAGER')).toBe('cat');
  });

  it('takes exclude patterns, set and includeOnly from the tool-bash environment option', async () => {
    const env = await printenv({ environment: { exclude: ['build_*'], set: { CI_JOB: '7', DEPLOY_TOKEN: 'given-on-purpose' } } });
    expect(env.has('BUILD_MODE')).toBe(false);
    expect(env.get('ASSISTANT_ENV_PLAIN')).toBe('plain');
    // Set explicitly: the user chose to pass it.
    expect(env.get('DEPLOY_TOKEN')).toBe('given-on-purpose');
    expect(env.get('CI_JOB')).toBe('7');

    const only = await printenv({ environment: { includeOnly: ['PATH', 'assistant_env_*'] } });
    expect([...only.keys()].filter((k) => !['PAGER', 'GIT_PAGER', 'GIT_TERMINAL_PROMPT', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(k)).sort()).toEqual(['ASSISTANT_ENV_PLAIN', 'PATH']);
  });

  it('starts from the core set or nothing when asked, and never passes provider keys', async () => {
    const core = await printenv({ environment: { inherit: 'core' } });
    expect(core.get('PATH')).toBe(process.env.PATH);
    expect(core.has('ASSISTANT_ENV_PLAIN')).toBe(false);

    const none = await printenv({ environment: { inherit: 'none', set: { PATH: '/usr/bin:/bin' } } });
    expect(none.get('PATH')).toBe('/usr/bin:/bin');
    expect(none.has('HOME')).toBe(false);

    // Without the default excludes credentials pass, but the agent's own provider key still does not.
    const all = await printenv({ environment: { ignoreDefaultExcludes: true } });
    expect(all.get('GITHUB_TOKEN')).toBe(SECRETS.GITHUB_TOKEN);
    expect(all.has('ANTHROPIC_API_KEY')).toBe(false);
  });

  it('passes nothing that makes the shell run other than the permission engine judged', async () => {
    // A CDPATH folder with the directory the command names: `cd` would leave the project for it.
    const elsewhere = makeProject({ 'target/marker.txt': 'outside' });
    const steering: Record<string, string> = {
      CDPATH: elsewhere,
      BASH_ENV: `${elsewhere}/target/marker.txt`,
      ENV: `${elsewhere}/target/marker.txt`,
      SHELLOPTS: 'keyword',
      BASHOPTS: 'cdable_vars',
      'BASH_FUNC_ls%%': '() { echo hijacked; }',
      // Expanded before each traced line by a bash that is not root: `set -x` is judged harmless.
      PS4: '$(echo hijacked >&2)+ ',
    };
    for (const [name, value] of Object.entries(steering)) {
      saved.set(name, process.env[name]);
      process.env[name] = value;
    }
    const project = makeProject({ 'here.txt': 'x' });
    for (const options of [undefined, { environment: { set: { CDPATH: elsewhere } } }]) {
      const { kernel } = await kernelFor(project, undefined, { config: { sandbox: 'off', plugins: options ? [['tool-bash', options]] : [] } as never });
      kernels.push(kernel);
      const result = await runOne(kernel, 'Bash', { command: 'printenv | cut -d= -f1; set -x; ls; cd target && cat marker.txt' });
      const out = text(result);
      for (const name of Object.keys(steering)) expect(out, name).not.toMatch(new RegExp(`^${name}$`, 'm'));
      expect(out).toContain('here.txt');
      expect(out).not.toContain('hijacked');
      expect(out).not.toContain('outside');
    }
  });

  it('drops the relative and empty entries of PATH, where a command could find a program the agent wrote', async () => {
    const project = makeProject({ 'bin/ls': '#!/bin/sh\necho planted\n', 'here.txt': 'x' });
    chmodSync(join(project, 'bin/ls'), 0o755);
    saved.set('PATH', process.env.PATH);
    const system = process.env.PATH!;
    process.env.PATH = `bin${delimiter}.${delimiter}${delimiter}${system}`;
    const { kernel } = await kernelFor(project, undefined, { config: { sandbox: 'off' } as never });
    kernels.push(kernel);
    const result = await runOne(kernel, 'Bash', { command: 'ls; printenv PATH' });
    process.env.PATH = system;
    expect(text(result)).toContain('here.txt');
    expect(text(result)).not.toContain('planted');
    expect(text(result).trim().split('\n').pop()).toBe(system.split(delimiter).filter((entry) => isAbsolute(entry)).join(delimiter));
  });

  it('refuses a malformed environment option with the plugin and the JSON path', async () => {
    await expect(kernelFor(makeProject({}), undefined, { config: { plugins: [['tool-bash', { environment: { inherit: 'some' } }]] } as never })).rejects.toThrow(/tool-bash.*environment/s);
  });
});
