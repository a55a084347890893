// Session stores: append+fsync latency per turn, load of a 10,000-message session, `sessions list`
// with 1,000 sessions — for the JSONL store and (when redis-server is installed) the Redis store.
// Writes its section of docs/benchmarks.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../dist/config/load.js';
import { createKernel } from '../dist/core/kernel/kernel.js';
import { openSession } from '../dist/core/kits/agent/index.js';
import { machine, median, percentile, writeSection } from './lib/report.mjs';

const TURNS = 500;
const LOAD_RUNS = 10;
const LIST_SESSIONS = 1000;
const temp = (prefix) => mkdtempSync(join(tmpdir(), prefix));
const cleanup = [];

const user = (i) => ({ role: 'user', content: [{ type: 'text', text: `Please look at src/module-${i}.ts and explain what the exported function does, then suggest a test.` }], meta: { time: Date.now(), origin: 'user' } });
const reply = (i, call) => ({
  role: 'assistant',
  content: [{ type: 'text', text: `Reading src/module-${i}.ts to see how the exported function handles empty input before suggesting a test for it.` }, ...(call ? [{ type: 'tool_call', id: `call_${i}`, name: 'Read', input: { path: `src/module-${i}.ts` } }] : [])],
});
const result = (i) => ({ role: 'tool', content: [{ type: 'tool_result', toolCallId: `call_${i}`, content: [{ type: 'text', text: `export function f${i}(xs: number[]) {\n  return xs.length ? Math.max(...xs) : undefined;\n}\n` }] }] });

async function kernelFor(persistence) {
  const project = temp('assistant-bench-project-');
  cleanup.push(project);
  const config = await loadConfig({ cwd: project, env: { HOME: project }, flags: { persistence } });
  return createKernel({ config, headless: true });
}

async function measure(persistence) {
  // Append + fsync per turn: assistant message with a tool call, its result, both checkpoints.
  const writer = await kernelFor(persistence);
  const session = await openSession(writer, { projectRoot: writer.projectRoot, mode: 'default', model: 'bench' });
  await session.record({ type: 'message', message: user(0) });
  const perTurn = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await session.record({ type: 'message', message: reply(i, true) });
    await session.record({ type: 'message', message: result(i) });
    await session.record({ type: 'checkpoint', reason: 'tool_result' });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    perTurn.push(performance.now() - t0);
  }
  await writer.shutdown();

  // A 10,000-message session, loaded by a fresh kernel each time.
  const big = await kernelFor(persistence);
  const bigSession = await openSession(big, { projectRoot: big.projectRoot, mode: 'default', model: 'bench' });
  for (let i = 0; i < 5000; i++) {
    await bigSession.record({ type: 'message', message: user(i) });
    await bigSession.record({ type: 'message', message: reply(i, false) });
  }
  await bigSession.record({ type: 'checkpoint', reason: 'turn_end' });
  await big.shutdown();
  const loads = [];
  for (let run = 0; run < LOAD_RUNS; run++) {
    const reader = await createKernel({ config: big.resolvedConfig, headless: true });
    const t0 = performance.now();
    const snapshot = await reader.store().load({ kind: 'id', id: bigSession.info.id, projectRoot: big.projectRoot });
    loads.push(performance.now() - t0);
    if (snapshot.messages.length !== 10_000) throw new Error(`loaded ${snapshot.messages.length} messages`);
    await reader.shutdown();
  }

  // 1,000 sessions in one project, listed by a fresh kernel each time.
  const many = await kernelFor(persistence);
  for (let i = 0; i < LIST_SESSIONS; i++) {
    const s = await openSession(many, { projectRoot: many.projectRoot, mode: 'default', model: 'bench' });
    await s.record({ type: 'message', message: user(i) });
    await s.record({ type: 'message', message: reply(i, false) });
    await s.record({ type: 'checkpoint', reason: 'turn_end' });
  }
  await many.shutdown();
  const lists = [];
  for (let run = 0; run < LOAD_RUNS; run++) {
    const reader = await createKernel({ config: many.resolvedConfig, headless: true });
    const t0 = performance.now();
    const rows = await reader.store().list({ projectRoot: many.projectRoot });
    lists.push(performance.now() - t0);
    if (rows.length !== LIST_SESSIONS) throw new Error(`listed ${rows.length} sessions`);
    await reader.shutdown();
  }
  return { perTurn, loads, lists, listProject: many.projectRoot, listConfig: many.resolvedConfig };
}

function cliListMs(project, dataDir) {
  const cli = new URL('../dist/bin/assistant.cjs', import.meta.url).pathname;
  const env = { ...process.env, HOME: project, ASSISTANT_DATA_DIR: dataDir, ASSISTANT_CONFIG_DIR: join(project, '.config') };
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'sessions', 'list', '--limit', '2000'], { cwd: project, env, encoding: 'utf8' });
    times.push(performance.now() - t0);
    if (r.status !== 0 || r.stdout.trim().split('\n').length !== LIST_SESSIONS) throw new Error(`sessions list failed: ${r.stderr}`);
  }
  return median(times);
}

async function startRedis() {
  const binary = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!binary) return undefined;
  const port = await new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const dir = temp('assistant-bench-redis-');
  cleanup.push(dir);
  const child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => (out += d) && out.includes('Ready to accept connections') && resolve());
    child.on('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/** The floor under the JSONL numbers on this disk and load: two bare appends, each followed by fdatasync, per "turn". */
async function bareFsyncTurns() {
  const { open } = await import('node:fs/promises');
  const dir = temp('assistant-bench-fsync-');
  cleanup.push(dir);
  const handle = await open(join(dir, 'floor.jsonl'), 'a');
  const times = [];
  for (let i = 0; i < TURNS; i++) {
    const t0 = performance.now();
    await handle.appendFile(JSON.stringify(reply(i, true)) + '\n');
    await handle.datasync();
    await handle.appendFile(JSON.stringify(result(i)) + '\n');
    await handle.datasync();
    times.push(performance.now() - t0);
  }
  await handle.close();
  return times;
}

const fmt = (n) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));
const rows = [];
const dataDir = temp('assistant-bench-data-');
cleanup.push(dataDir);
const floor = await bareFsyncTurns();
const jsonl = await measure({ store: 'jsonl', jsonl: { dir: dataDir } });
const jsonlCli = cliListMs(jsonl.listProject, dataDir);
rows.push(['JSONL', jsonl, `${fmt(jsonlCli)} ms`]);
const redis = await startRedis();
if (redis) {
  try {
    rows.push(['Redis (AOF, fsync always)', await measure({ store: 'redis', redis: { url: redis.url, keyPrefix: `bench${Date.now()}:`, spoolDir: temp('assistant-bench-spool-') } }), 'n/a']);
  } finally {
    redis.stop();
  }
}
for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });

const table = rows.map(
  ([name, r, cli]) =>
    `| ${name} | ${fmt(median(r.perTurn))} | ${fmt(percentile(r.perTurn, 99))} | ${fmt(median(r.loads))} | ${fmt(Math.max(...r.loads))} | ${fmt(median(r.lists))} | ${cli} |`,
);
const p99 = percentile(jsonl.perTurn, 99);
const load = median(jsonl.loads);
const markdown = `
## Session stores (bench/sessions.bench.mjs)

${machine()}; ${TURNS} turns appended (each: an assistant message with a tool call, its result, the
tool-result and turn-end checkpoints: two fdatasyncs, plus a metadata rewrite at most once a second, on the JSONL store); a
10,000-message session loaded ${LOAD_RUNS} times by a fresh kernel; ${LIST_SESSIONS} sessions of one project
listed ${LOAD_RUNS} times by a fresh kernel (and by the CLI, process start included, for JSONL).
${redis ? 'Redis: a local redis-server 127.0.0.1 with `appendonly yes`, `appendfsync always`.' : 'Redis: not measured (redis-server not installed).'}

| store | append per turn p50 ms | p99 ms | load 10k messages median ms | max ms | list 1,000 sessions median ms | \`assistant sessions list\` ms |
|---|---|---|---|---|---|---|
${table.join('\n')}

For scale, the same turn as two bare \`appendFile\` + \`fdatasync\` pairs on this disk: p50 ${fmt(median(floor))} ms, p99 ${fmt(percentile(floor, 99))} ms
(load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores when measured).

Targets: p99 append per turn < 5 ms on the JSONL store — ${p99 < 5 ? 'met' : 'missed'} (${fmt(p99)} ms);
load of 10,000 messages < 300 ms — ${load < 300 ? 'met' : 'missed'} (${fmt(load)} ms).
`;
writeSection('sessions', markdown);
console.log(markdown);
