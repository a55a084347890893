#!/usr/bin/env node
// `npm run test:stress [-- <test files or vitest flags>]`: runs the tests on a machine kept busy,
// as CI's shared 2-core runners are, to catch assertions and timeouts that depend on speed.
// Starts busy loops (one per core by default, STRESS_LOOPS to change), runs `npm test` (or vitest
// on the given files, after a build), and always stops the loops: on exit, on Ctrl+C, and by
// themselves after STRESS_MAX_MINUTES (default 60) should this process be killed outright.
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';

const loops = Number(process.env.STRESS_LOOPS ?? availableParallelism());
const lifetimeMs = Number(process.env.STRESS_MAX_MINUTES ?? 60) * 60_000;
const args = process.argv.slice(2);

// Each loop ends itself after its lifetime, so none outlives a killed runner for long.
const spin = `const end = Date.now() + ${lifetimeMs}; while (Date.now() < end) {}`;
const busy = Array.from({ length: loops }, () => spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }));

/** The test command running now, stopped with us. */
let current;
function stopLoops() {
  for (const child of busy) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', stopLoops);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    stopLoops();
    // The command runs in its own process group: stop all of it (npm, its shell, vitest's workers).
    if (current && current.exitCode === null) {
      try {
        process.kill(-current.pid, signal);
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');
console.error(`test:stress: ${loops} busy loops started (pids ${busy.map((c) => c.pid).join(', ')}); load average ${load()}`);

/** Runs a command with the terminal attached; resolves with its exit status. */
function run(command, commandArgs, env = process.env) {
  return new Promise((resolve) => {
    const child = (current = spawn(command, commandArgs, { stdio: 'inherit', env, detached: true }));
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// CI runs as CI=true, which also stops tests that need a system tool from skipping.
const env = { ...process.env, CI: process.env.CI ?? 'true' };
let status;
if (args.length === 0) status = await run('npm', ['test'], env);
else {
  status = await run('npm', ['run', 'build']);
  if (status === 0) status = await run('npx', ['vitest', 'run', '--config', 'test/vitest.config.ts', ...args], env);
}
console.error(`test:stress: done (exit ${status}); load average ${load()}`);
stopLoops();
process.exit(status ?? 1);
