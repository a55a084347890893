import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messageText, type Message } from '../../dist/core/index.js';
import { CLI, runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { kernelFor, writeScriptedConfig } from './helpers.js';

const ITERATIONS = 24;
const TURNS = 5;

const readMarks = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);

/**
 * Starts a scripted multi-turn run and SIGKILLs it `jitterMs` after its `afterTurns`-th turn was
 * persisted (for 0: `jitterMs` after start). Kill moments follow the run's own progress, so they
 * land mid-run however fast or loaded the machine is.
 */
function runAndKill(dir: string, env: NodeJS.ProcessEnv, markers: string, afterTurns: number, jitterMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--trust-project', '-p', 'task'], { cwd: dir, env, stdio: 'ignore' });
    let timer: NodeJS.Timeout | undefined;
    const kill = () => (timer = setTimeout(() => child.kill('SIGKILL'), jitterMs));
    const watch = setInterval(() => {
      if (readMarks(markers).length < afterTurns) return;
      clearInterval(watch);
      kill();
    }, 2);
    if (afterTurns === 0) {
      clearInterval(watch);
      kill();
    }
    child.on('error', reject);
    child.on('exit', () => {
      clearInterval(watch);
      clearTimeout(timer);
      resolve();
    });
  });
}

const textOf = (messages: Message[]) => messages.map((m) => `${m.role}:${m.role === 'tool' ? JSON.stringify(m.content.map((c) => c.content)) : messageText(m)}`);

describe('kill -9 at random moments', () => {
  it(`never loses a completed turn, and --continue works every time (${ITERATIONS} runs)`, async () => {
    // Calibrate: how long start-up takes here, so the kills before the first turn spread over it.
    const probe = makeProject();
    const probeMarkers = join(probe, 'markers.txt');
    writeScriptedConfig(probe, { turns: TURNS, delayMs: 6, markers: probeMarkers });
    const started = performance.now();
    expect((await runCli(['--trust-project', '-p', 'task'], { cwd: probe, env: isolatedEnv() })).code).toBe(0);
    const runMs = performance.now() - started;

    const outcomes: string[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const dir = makeProject();
      const markers = join(dir, 'markers.txt');
      writeScriptedConfig(dir, { turns: TURNS, delayMs: 6, markers });
      const env = isolatedEnv();
      // Kill during start-up, or within the turn after each persisted one (a scripted turn takes a few
      // tens of ms: its events are 6 ms apart), or after the last.
      const afterTurns = i % (TURNS + 1);
      const jitter = Math.round(Math.random() * (afterTurns === 0 ? runMs * 0.6 : 12));
      await runAndKill(dir, env, markers, afterTurns, jitter);
      const marks = readMarks(markers);
      const finished = marks.some((m) => m.startsWith('done'));
      const completedTurns = finished ? TURNS : marks.filter((m) => m.startsWith('turn')).length;
      const context = `run ${i}: killed ${jitter} ms after turn ${afterTurns} with markers [${marks.join(', ')}]`;

      const resumed = await runCli(['--trust-project', '--continue', '-p', 'again'], { cwd: dir, env });
      const kernel = await kernelFor(dir, env.ASSISTANT_DATA_DIR!);
      const listed = await kernel.store().list({ projectRoot: dir });
      if (resumed.code !== 0) {
        // Only acceptable when the kill came before the session's first record was written.
        expect(completedTurns, context).toBe(0);
        expect(resumed.stderr, context).toMatch(/ASSISTANT_SESSION_NOT_FOUND: no previous session to continue/);
        outcomes.push('before-session');
        continue;
      }
      expect(resumed.stdout, context).toContain(`Finished "again" after ${TURNS} turns.`);
      expect(listed, context).toHaveLength(1);
      const snapshot = (await kernel.store().load({ kind: 'id', id: listed[0]!.id, projectRoot: dir }))!;
      const history = textOf(snapshot.messages);
      // Every turn the killed run completed is there, in order, with its tool result.
      let at = history.indexOf('user:task');
      if (completedTurns > 0) expect(at, context).toBeGreaterThanOrEqual(0);
      for (let turn = 1; turn <= Math.min(completedTurns, TURNS - 1); turn++) {
        const step = history.indexOf(`assistant:Step ${turn} for "task".`, at);
        expect(step, `${context}: turn ${turn}`).toBeGreaterThan(at);
        expect(history[step + 1], `${context}: result of turn ${turn}`).toBe(`tool:${JSON.stringify([[{ type: 'text', text: `noted ${turn}` }]])}`);
        at = step + 1;
      }
      if (finished) expect(history, context).toContain(`assistant:Finished "task" after ${TURNS} turns.`);
      // The resumed prompt ran to the end on top of it.
      const again = history.lastIndexOf('user:again');
      expect(again, context).toBeGreaterThan(-1);
      expect(history.at(-1), context).toBe(`assistant:Finished "again" after ${TURNS} turns.`);
      // No record after the torn one was lost: a second load has nothing to warn about.
      expect(snapshot.warnings, context).toEqual([]);
      await kernel.shutdown();
      outcomes.push(finished ? 'after-done' : `after-turn-${completedTurns}`);
    }
    if (process.env.DEBUG_CRASH) console.log(`whole run ${Math.round(runMs)} ms:`, outcomes.join(' '));
    // The spread of kill moments really hit the middle of runs, not only their edges.
    expect(outcomes.filter((o) => o.startsWith('after-turn')).length).toBeGreaterThan(4);
    // 49 CLI runs: a few seconds each on a loaded 2-core machine.
  }, 600_000);
});
