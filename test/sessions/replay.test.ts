import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { scriptedProject, writeScriptedConfig } from './helpers.js';

// The scripted test project loads its own provider plugin: the user trusts it.
const cli = (dir: string, env: NodeJS.ProcessEnv, ...args: string[]) => runCli(['--trust-project', ...args], { cwd: dir, env });

async function recorded(script = { turns: 3 }) {
  const dir = scriptedProject(script);
  const env = isolatedEnv();
  expect((await cli(dir, env, '--record', '-p', 'first')).code).toBe(0);
  expect((await cli(dir, env, '--record', '--continue', '-p', 'second')).code).toBe(0);
  const id = JSON.parse((await cli(dir, env, 'sessions', 'list', '--json')).stdout)[0].id as string;
  return { dir, env, id };
}

describe('record and replay', () => {
  it('replays a recorded session offline with no divergence when nothing changed', async () => {
    const { dir, env, id } = await recorded();
    // The provider is gone: replay never calls it.
    writeScriptedConfig(dir, { turns: 3 }, { provider: { name: 'nobody-provides-this' } });
    const replay = await cli(dir, env, 'replay', id.slice(0, 8), '--json');
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toEqual({
      sessionId: id,
      prompts: 2,
      modelCalls: { recorded: 6, replayed: 6 },
      toolCalls: { recorded: 4, replayed: 4, mode: 'recorded' },
      divergences: [],
    });
    expect((await cli(dir, env, 'replay', id)).stdout).toContain('no divergence: the run behaved as recorded');
  });

  it('runs tools again with --tools live and reports the first place a result and the next request differ', async () => {
    const { dir, env, id } = await recorded();
    writeScriptedConfig(dir, { turns: 3, failNote: 2 });
    const replay = await cli(dir, env, 'replay', id, '--tools', 'live');
    expect(replay.code).toBe(1);
    expect(replay.stdout).toContain('4 tool call(s) run again');
    expect(replay.stdout).toContain('  tool call call_5_2 (Note): result differs: recorded "noted 2", now "error: note 2 failed"\n');
    expect(replay.stdout).toContain('  model call 3: message 5 differs: recorded tool: "noted 2", now tool: "note 2 failed"\n');
    expect(replay.stdout).toContain('  tool call call_6_2 (Note): result differs');
  });

  it('reports a changed system prompt and a changed limit that cuts the run short', async () => {
    const { dir, env, id } = await recorded();
    writeScriptedConfig(dir, { turns: 3 }, { systemPrompt: { append: 'Be terse.' }, limits: { maxTurns: 2 } });
    const report = JSON.parse((await cli(dir, env, 'replay', id, '--json')).stdout);
    expect(report.divergences).toEqual(
      expect.arrayContaining([
        { at: 'model call 1', detail: 'system prompt section "instructions" changed' },
        { at: 'prompt 1', detail: expect.stringMatching(/^ended max_turns after 2 turns .*; the recording ended completed after 3$/) },
      ]),
    );
    // Prompt 1 stops after 2 calls; the recorded answers then run out of step with prompt 2, which ends early.
    expect(report.modelCalls).toEqual({ recorded: 6, replayed: 3 });
    expect(report.divergences).toContainEqual({ at: 'end', detail: 'the replay made 3 model calls; the recording has 6' });
  });

  it('explains that a session without a recording cannot be replayed', async () => {
    const dir = scriptedProject({ turns: 2 });
    const env = isolatedEnv();
    await cli(dir, env, '-p', 'plain');
    const id = JSON.parse((await cli(dir, env, 'sessions', 'list', '--json')).stdout)[0].id as string;
    const replay = await cli(dir, env, 'replay', id);
    expect(replay.code).toBe(2);
    expect(replay.stderr.trim()).toBe(`ASSISTANT_REPLAY_NO_RECORDING: session ${id.slice(0, 8)} was not recorded; run with --record (or set persistence.record: true) to record sessions for replay`);
  });
});
