import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../dist/core/index.js';
import { makeProject } from '../support/project.js';
import { kernelFor, runOne, text } from './helpers.js';
import { pollUntil } from '../support/wait.js';

let kernel: Kernel;
let root: string;
beforeAll(async () => {
  root = makeProject({ 'src/main.c': 'int main;\n' });
  mkdirSync(join(root, 'deep', 'er'), { recursive: true });
  process.env.ANTHROPIC_API_KEY = 'sk-test-secret';
  process.env.ASSISTANT_TEST_VISIBLE = 'visible';
  // Worker threads take the environment as it was when they started: set before any pool exists.
  process.env.MY_GATEWAY_VAR = 'gw-secret';
  // Unsandboxed: these tests follow host process ids (sandboxed runs are in test/tools/sandbox.test.ts).
  ({ kernel } = await kernelFor(root, undefined, { config: { sandbox: 'off' } }));
});
afterAll(async () => {
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.ASSISTANT_TEST_VISIBLE;
  delete process.env.MY_GATEWAY_VAR;
  await kernel.shutdown();
});

const bash = (command: string, extra: Record<string, unknown> = {}, context = {}) => runOne(kernel, 'Bash', { command, ...extra }, context);

/** True while a process with this pid runs (a zombie waiting to be reaped counts as gone). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

describe('Bash', () => {
  it('runs a command with stdout and stderr and reports a failing exit code', async () => {
    const ok = await bash('echo out; echo err >&2');
    expect(text(ok)).toBe('out\nerr');
    expect(ok.metadata?.exitCode).toBe(0);
    const failed = await bash('echo nope; exit 3');
    expect(failed.isError).toBe(true);
    expect(text(failed)).toBe('nope\nExit code 3');
    expect(failed.metadata?.exitCode).toBe(3);
  });

  it('keeps the working directory between calls of a session, confined to the project', async () => {
    const session = { sessionId: 'cwd-session' };
    await bash('cd deep/er', {}, session);
    expect(text(await bash('pwd', {}, session))).toBe(join(root, 'deep', 'er'));
    // Another session starts where the user started.
    expect(text(await bash('pwd', {}, { sessionId: 'fresh' }))).toBe(root);
    const left = await bash(`cd ${realpathSync(tmpdir())}`, {}, session);
    expect(text(left)).toContain('outside the project; the next command starts in the project root');
    expect(text(await bash('pwd', {}, session))).toBe(root);
  });

  it('removes provider keys from the environment and keeps the rest', async () => {
    const result = await bash('echo "[$ANTHROPIC_API_KEY] [$ASSISTANT_TEST_VISIBLE] [$GIT_PAGER]"');
    expect(text(result)).toBe('[] [visible] [cat]');
  });

  it("also removes the variable the configured provider reads its key from (provider.apiKeyEnv)", async () => {
    const { kernel: custom } = await kernelFor(root, undefined, { config: { sandbox: 'off', provider: { name: 'openai', apiKeyEnv: 'MY_GATEWAY_VAR' } } });
    try {
      expect(text(await runOne(custom, 'Bash', { command: 'echo "[$MY_GATEWAY_VAR] [$ASSISTANT_TEST_VISIBLE]"' }))).toBe('[] [visible]');
      // Without that setting the variable (its name does not look like a credential) is nobody's key, and passes through.
      expect(text(await bash('echo "[$MY_GATEWAY_VAR]"'))).toBe('[gw-secret]');
    } finally {
      await custom.shutdown();
    }
  });

  it('keeps the head and tail of huge output', async () => {
    const result = await bash('for i in $(seq 1 20000); do echo "line $i"; done');
    const out = text(result);
    expect(out.startsWith('line 1\nline 2\n')).toBe(true);
    expect(out.endsWith('line 19999\nline 20000')).toBe(true);
    expect(out).toMatch(/\.\.\. \[\d+ characters of output elided\] \.\.\./);
    expect(out.length).toBeLessThan(31_000);
  });

  it('stops a command at its timeout with what it printed so far', async () => {
    // 5 s: a loaded machine may take more than a second to start the shell and print.
    const result = await bash('echo started; sleep 30', { timeout: 5000 });
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_TIMEOUT');
    expect(text(result)).toBe('started\nCommand timed out after 5 s and was stopped (with everything it started).');
  });

  it('kills the whole process group when the call is cancelled', async () => {
    const pidFile = join(root, 'child.pid');
    const controller = new AbortController();
    const pending = bash(`sh -c 'trap "" TERM; sleep 60' & echo $! > ${pidFile}; wait`, {}, { signal: controller.signal });
    // The file appears before `echo` has written to it: wait for the whole pid (an empty file reads as 0, our own group).
    const pidIn = () => (existsSync(pidFile) ? /^(\d+)\n$/.exec(readFileSync(pidFile, 'utf8'))?.[1] : undefined);
    await pollUntil(pidIn);
    const child = Number(pidIn());
    expect(child).toBeGreaterThan(1);
    expect(alive(child)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_ABORTED');
    // The grandchild ignored SIGTERM; the group's SIGKILL still took it.
    await pollUntil(() => !alive(child));
    expect(alive(child)).toBe(false);
  });

  it('returns when the shell exits, even if a background job keeps the output open', async () => {
    // Were the tool to wait for the pipes to close, this would outlast the test's own timeout.
    const pidFile = join(root, 'background.pid');
    const result = await bash(`sleep 120 & echo $! > ${pidFile}; echo done`);
    expect(text(result)).toBe('done');
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
  });
});
