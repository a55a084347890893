// Start-up cost: wall time and peak RSS of `assistant --version`, `--help` and `plugins`
// against a bare `node -e 0`. Target: --version within 1.5x of node -e 0.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, median, percentile, writeSection } from './lib/report.mjs';

const cli = fileURLToPath(new URL('../dist/bin/assistant.cjs', import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 30);
const home = mkdtempSync(join(tmpdir(), 'assistant-bench-'));
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ASSISTANT_CONFIG_DIR: join(home, 'cfg'), ASSISTANT_DATA_DIR: join(home, 'data') };
const cwd = mkdtempSync(join(tmpdir(), 'assistant-bench-project-'));
const hasTime = existsSync('/usr/bin/time');

const cases = [
  ['node -e 0', [process.execPath, '-e', '0']],
  ['assistant --version', [process.execPath, cli, '--version']],
  ['assistant --help', [process.execPath, cli, '--help']],
  ['assistant plugins', [process.execPath, cli, 'plugins']],
];

function measure(argv) {
  const walls = [];
  const rss = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = process.hrtime.bigint();
    const r = hasTime
      ? spawnSync('/usr/bin/time', ['-f', '%M', ...argv], { cwd, env, encoding: 'utf8' })
      : spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${argv.join(' ')} failed: ${r.stderr}`);
    if (i < 2) continue; // warm the file cache
    walls.push(ms);
    if (hasTime) rss.push(Number(r.stderr.trim().split('\n').pop()) / 1024);
  }
  return { wall: median(walls), p90: percentile(walls, 90), rss: rss.length ? Math.max(...rss) : undefined };
}

const results = cases.map(([name, argv]) => [name, measure(argv)]);
const base = results[0][1].wall;
const rows = results.map(
  ([name, r]) => `| \`${name}\` | ${r.wall.toFixed(1)} | ${r.p90.toFixed(1)} | ${(r.wall / base).toFixed(2)}x | ${r.rss ? r.rss.toFixed(1) : 'n/a'} |`,
);
const version = results[1][1].wall / base;
const md = `## Start-up (bench/startup.bench.mjs)

${machine()}; ${runs} runs each after 2 warm-up runs; wall time measured around the whole process
(${hasTime ? 'peak RSS from GNU time' : 'peak RSS not available without /usr/bin/time'}); empty project, no user config.

| command | median ms | p90 ms | vs node -e 0 | peak RSS MiB |
|---|---|---|---|---|
${rows.join('\n')}

Target: \`--version\` within 1.5x of \`node -e 0\` — ${version <= 1.5 ? 'met' : 'NOT met'} (${version.toFixed(2)}x).
\`--version\` is answered before any module is imported; \`--help\` and \`plugins\` load the config and
apply every built-in plugin, but import no provider SDK and start no worker.`;
writeSection('startup', md);
console.log(md);
