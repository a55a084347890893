// Interactive start-up: time from launching `assistant` on a terminal to the first paint of a
// ready prompt (the status line), and the process's peak RSS after it has idled at the prompt.
// The CLI runs under `script` so it has a real pseudo-terminal; the model is a tiny local
// provider plugin (no network). Peers are not installed here, so only our own numbers are kept.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, median, percentile, writeSection } from './lib/report.mjs';

const cli = fileURLToPath(new URL('../dist/bin/assistant.cjs', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 20);
const IDLE_MS = 1000;
if (spawnSync('script', ['--version']).status !== 0) {
  console.error('bench/ui-startup.bench.mjs needs `script` (util-linux) for a pseudo-terminal');
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), 'assistant-bench-home-'));
const project = mkdtempSync(join(tmpdir(), 'assistant-bench-ui-'));
writeFileSync(
  join(project, 'idle-provider.mjs'),
  `export default { name: 'idle-provider', apply(k) { k.hooks.provider.for('idle').tap('idle-provider', () => ({
    name: 'idle', capabilities: { images: false, thinking: false, promptCaching: false, parallelToolCalls: false }, defaultModel: 'idle-1',
    async *stream() {}, async complete() { throw new Error('unused'); }, async countTokens() { return 0; }, contextWindow: () => 1000 })); } };\n`,
);
writeFileSync(join(project, '.assistantrc'), JSON.stringify({ provider: { name: 'idle' }, plugins: ['./idle-provider.mjs'] }));
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  ASSISTANT_CONFIG_DIR: join(home, 'cfg'),
  ASSISTANT_DATA_DIR: join(home, 'data'),
  TERM: 'xterm-256color',
  COLUMNS: '80',
  LINES: '30',
};

/** Pids below `root`, found through /proc. */
function descendants(root) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {}
  }
  const out = [];
  const queue = [root];
  while (queue.length) for (const child of children.get(queue.shift()) ?? []) out.push(child), queue.push(child);
  return out;
}

function peakRssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

function once() {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn('script', ['-qfec', `stty cols 80 rows 30; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} --trust-project`, '/dev/null'], { cwd: project, env });
    let out = '';
    let readyMs;
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`no prompt within 10s:\n${out}`))), 10_000);
    child.stdout.on('data', (d) => {
      out += d;
      if (readyMs === undefined && out.includes('(shift+tab)')) {
        readyMs = Number(process.hrtime.bigint() - t0) / 1e6;
        setTimeout(() => {
          const node = descendants(child.pid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('bin/assistant.cjs'));
          const rss = node ? peakRssMiB(node) : NaN;
          child.stdin.write('\x03');
          setTimeout(() => child.stdin.write('\x03'), 50);
          child.on('close', () => (clearTimeout(timer), resolve({ readyMs, rss })));
        }, IDLE_MS);
      }
    });
  });
}

const timed = (argv) => {
  const t0 = process.hrtime.bigint();
  spawnSync(argv[0], argv.slice(1), { cwd: project, env });
  return Number(process.hrtime.bigint() - t0) / 1e6;
};

// Interleaved with the same-size references, so a busy machine slows all of them alike.
const results = [];
const baseline = [];
const help = [];
for (let i = 0; i < runs + 2; i++) {
  const r = await once();
  const b = timed([process.execPath, '-e', '0']);
  const h = timed([process.execPath, cli, '--help']);
  if (i < 2) continue; // the first runs warm the file cache
  results.push(r);
  baseline.push(b);
  help.push(h);
}
const ready = results.map((r) => r.readyMs);
const rss = results.map((r) => r.rss);

const md = `## Interactive start-up (bench/ui-startup.bench.mjs)

${machine()}; ${runs} launches after 2 warm-up runs, each in a pseudo-terminal (\`script\`), 80x30;
a local provider plugin, no network; the built-in plugins of the default preset.

| measure | median | p90 | max |
|---|---|---|---|
| launch → ready prompt painted (ms) | ${median(ready).toFixed(1)} | ${percentile(ready, 90).toFixed(1)} | ${Math.max(...ready).toFixed(1)} |
| peak RSS after ${IDLE_MS / 1000}s idle at the prompt (MiB) | ${median(rss).toFixed(1)} | ${percentile(rss, 90).toFixed(1)} | ${Math.max(...rss).toFixed(1)} |
| \`assistant --help\` for scale: loads config and every plugin (ms) | ${median(help).toFixed(1)} | ${percentile(help, 90).toFixed(1)} | ${Math.max(...help).toFixed(1)} |
| \`node -e 0\` for scale (ms) | ${median(baseline).toFixed(1)} | ${percentile(baseline, 90).toFixed(1)} | ${Math.max(...baseline).toFixed(1)} |

Load average while measuring: ${loadavg().map((l) => l.toFixed(2)).join(', ')} (shared machine: compare the rows with each other).

"Ready" is the first frame that shows the status line under the input, measured from the
spawn of \`script\` (which adds its own few milliseconds). Most of that time is the start-up every
command shares (config loading and validation, plugin loading: compare \`--help\`); the UI's own
modules (renderer, editor, approvals) load only when the interactive UI starts, and jsdiff only
at the first diff.`;
writeSection('ui-startup', md);
console.log(md);
