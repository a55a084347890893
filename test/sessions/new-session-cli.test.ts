import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { scriptedProject, startCli, waitFor, writeScriptedConfig } from './helpers.js';

// The scripted test project loads its own provider plugin: the user trusts it.
const cli = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => runCli(['--trust-project', ...args], { cwd: dir, env });
const listJson = async (dir: string, env: NodeJS.ProcessEnv) => JSON.parse((await cli(dir, env, 'sessions', 'list', '--json')).stdout) as Array<{ id: string; inUseBy?: string }>;

describe('a new session started by the CLI (built CLI)', () => {
  it('is held from its start: --continue and delete are refused; once its process is killed, --continue takes it without --take-over', async () => {
    const dir = scriptedProject({ turns: 400, delayMs: 15 });
    const env = isolatedEnv();
    const holder = startCli(['-p', 'long new job'], { cwd: dir, env });
    const row = await waitFor(async () => (await listJson(dir, env)).find((r) => r.inUseBy));
    expect(row.inUseBy).toMatch(/@/);

    const refused = await cli(dir, env, '--continue', '-p', 'me too');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ASSISTANT_SESSION_IN_USE: session [0-9a-f]{8} is in use on .+@.+ \(pid \d+, since .+\)/);
    const deleted = await cli(dir, env, 'sessions', 'delete', row.id);
    expect(deleted.code).toBe(1);
    expect(deleted.stderr).toMatch(/ASSISTANT_SESSION_IN_USE: session [0-9a-f]{8} is in use on .+ \(pid \d+/);

    // A crash: nothing is released, but the holder's process is gone.
    holder.child.kill('SIGKILL');
    await holder.done;
    expect((await listJson(dir, env)).find((r) => r.id === row.id)?.inUseBy).toBeUndefined();
    writeScriptedConfig(dir, { turns: 2 });
    const resumed = await cli(dir, env, '--continue', '-p', 'after the crash');
    expect(resumed.stderr).not.toContain('ASSISTANT_SESSION_IN_USE');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Finished "after the crash"');
  });
});
