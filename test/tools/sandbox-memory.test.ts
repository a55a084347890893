// bwrap's verdict kept between runs (plugins/tool-bash/remembered-verdict.ts): a run after one whose
// trial found the strongest sandbox runs no trial, unless bwrap, the environment or the kept file
// changed; weaker verdicts are never kept; `assistant doctor` always tries bwrap itself.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';

const SANDBOX = new URL('../../dist/plugins/tool-bash/sandbox.js', import.meta.url).href;

/**
 * A bwrap on PATH that leaves a mark each time it runs and exits with `status` (1 also while its
 * `broken` file exists); `status` 2: it works only without a user namespace (as in a container).
 */
function fakeBwrap(status: 0 | 1 | 2) {
  const bin = tempDir('assistant-bin-');
  const tried = join(bin, 'tried');
  const broken = join(bin, 'broken');
  const program = join(bin, 'bwrap');
  // `--version` (asked by doctor) leaves no mark: only trials do.
  const fail = 'echo "bwrap: No permissions to create new namespace" >&2; exit 1';
  const userNamespace = status === 2 ? 'case "$*" in *--unshare-user*) echo "bwrap: setting up uid map: Permission denied" >&2; exit 1;; esac\n' : '';
  writeFileSync(program, `#!/bin/sh\n[ "$1" = --version ] && echo 'bubblewrap 0.0' && exit 0\n: > '${tried}'\n[ -e '${broken}' ] && { ${fail}; }\n${userNamespace}${status === 1 ? fail : 'exit 0'}\n`, { mode: 0o755 });
  symlinkSync(process.execPath, join(bin, 'node'));
  /** Whether a trial ran since the last call (the mark is removed). */
  const ran = () => {
    const found = existsSync(tried);
    rmSync(tried, { force: true });
    return found;
  };
  return { bin, program, broken, ran };
}

/** The verdict of a fresh process (the verdict is kept per process too), probing in the background as a run does. */
function verdictIn(env: NodeJS.ProcessEnv, options: { trial?: boolean } = {}) {
  const script = `const { probeSandboxSoon, probeSandbox } = await import(${JSON.stringify(SANDBOX)});
    console.log(JSON.stringify(${options.trial ? 'probeSandbox({ trial: true })' : 'await probeSandboxSoon()'}));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as { available: boolean; userNamespace?: boolean; program?: string };
}

const keptFile = (env: NodeJS.ProcessEnv) => join(env.XDG_CACHE_HOME!, 'assistant', 'sandbox-verdict.json');

/** A working fake bwrap whose verdict a first run kept (its trial's mark cleared), and the environment it holds for. */
function keptVerdict(extra: NodeJS.ProcessEnv = {}) {
  const bwrap = fakeBwrap(0);
  const env = { ...isolatedEnv(), PATH: bwrap.bin, ...extra };
  const first = verdictIn(env);
  expect(bwrap.ran()).toBe(true);
  return { bwrap, env, first };
}
const DOCTOR_ENV = { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' };

describe("bwrap's verdict between runs", () => {
  it('is taken by the next run without a trial while bwrap and the environment are the same', () => {
    const { bwrap, env, first } = keptVerdict();
    expect(first).toEqual({ available: true, userNamespace: true, program: bwrap.program });
    expect(verdictIn(env)).toEqual(first);
    expect(bwrap.ran()).toBe(false);
  });

  it('is tried again when the bwrap file changes', () => {
    const { bwrap, env } = keptVerdict();
    // Rewritten in place to the same length: the same path, file and size.
    writeFileSync(bwrap.program, readFileSync(bwrap.program, 'utf8').replace('bubblewrap 0.0', 'bubblewrap 0.1'));
    verdictIn(env);
    expect(bwrap.ran()).toBe(true);
    expect(verdictIn(env).available).toBe(true);
    expect(bwrap.ran()).toBe(false);
  });

  it('is not taken for another bwrap: a kept verdict names the file it holds for', () => {
    const { bwrap: kept, env } = keptVerdict();
    const file = keptFile(env);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { fingerprint: string; program: string };
    // Another bwrap comes first on PATH: it is tried, and its own verdict is the one used.
    const other = fakeBwrap(1);
    const onPath = { ...env, PATH: `${other.bin}:${kept.bin}` };
    expect(verdictIn(onPath)).toEqual({ available: false, reason: expect.stringMatching(/bwrap cannot create namespaces here/) });
    expect(other.ran()).toBe(true);
    // A kept file rewritten to name the other bwrap with the first one's fingerprint is not believed either.
    writeFileSync(file, JSON.stringify({ ...saved, program: other.program }));
    expect(verdictIn(onPath).available).toBe(false);
    expect(other.ran()).toBe(true);
  });

  it('never keeps a verdict weaker than a sandbox with its own user namespace', () => {
    for (const [status, verdict] of [[1, { available: false }], [2, { available: true, userNamespace: false }]] as const) {
      const bwrap = fakeBwrap(status);
      const env = { ...isolatedEnv(), PATH: bwrap.bin };
      expect(verdictIn(env)).toMatchObject(verdict);
      expect(bwrap.ran()).toBe(true);
      expect(existsSync(keptFile(env))).toBe(false);
      expect(verdictIn(env)).toMatchObject(verdict);
      expect(bwrap.ran()).toBe(true);
    }
  });

  it('is ignored when the kept file is not one this version wrote', () => {
    const { bwrap, env } = keptVerdict();
    for (const junk of ['', '{', 'null', '[]', JSON.stringify({ program: bwrap.program }), JSON.stringify({ program: bwrap.program, fingerprint: 'x' })]) {
      writeFileSync(keptFile(env), junk);
      expect(verdictIn(env).available).toBe(true);
      expect(bwrap.ran()).toBe(true);
    }
  });

  it('is not trusted by `assistant doctor`, which tries bwrap itself', async () => {
    const { bwrap, env } = keptVerdict(DOCTOR_ENV);
    expect(verdictIn(env, { trial: true }).available).toBe(true);
    expect(bwrap.ran()).toBe(true);
    const root = makeProject({});
    const doctor = await runCli(['--trust-project', 'doctor'], { cwd: root, env });
    expect(doctor.stdout).toMatch(/sandbox: /);
    expect(bwrap.ran()).toBe(true);
  });

  it("is forgotten when a trial finds less: an earlier run's verdict never overrules a later trial", async () => {
    const { bwrap, env } = keptVerdict(DOCTOR_ENV);
    expect(existsSync(keptFile(env))).toBe(true);
    // Namespaces stop working here (a change the fingerprint does not see): the kept verdict is stale.
    writeFileSync(bwrap.broken, '');
    expect(verdictIn(env).available).toBe(true);
    const doctor = await runCli(['--trust-project', 'doctor'], { cwd: makeProject({}), env });
    expect(doctor.stdout).toMatch(/sandbox: bwrap cannot create namespaces here/);
    expect(existsSync(keptFile(env))).toBe(false);
    bwrap.ran();
    expect(verdictIn(env).available).toBe(false);
    expect(bwrap.ran()).toBe(true);
  });
});
