// A scripted coding task end to end, next to a bare `node -e 0` in the same run, round by round: wall
// time and CPU time of the process tree (bash, to the millisecond) and peak RSS (GNU time). The
// fixture is a git repository of 2,000 small files, 8 core files and 3 files of 1 MB; the fake LLM
// server scripts four turns: 8 parallel Reads and a Grep, an Edit, a Bash, an answer. Also a
// one-shot answer with no tools, and `--version`.
// Goals (issue #18): task ≤ 5x node -e 0 in wall and CPU, ≤ 100 MiB peak RSS; one-shot ≤ 2x.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine, median, writeSection } from './lib/report.mjs';

const { startFakeLlm } = await import(new URL('../dist/core/testing/index.js', import.meta.url).href);
const cli = fileURLToPath(new URL('../dist/bin/assistant.cjs', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const runs = Number(runsFlag > 0 ? process.argv[runsFlag + 1] : process.env.BENCH_RUNS ?? 5);
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.log('task bench skipped: GNU time (/usr/bin/time, Debian package "time") is needed for CPU and peak RSS');
  process.exit(0);
}

const CORE_FILES = Array.from({ length: 8 }, (_, i) => `src/core/module${i}.ts`);

/** The fixture repository, written once; each run resets it with git. */
function buildFixture() {
  const dir = mkdtempSync(join(tmpdir(), 'assistant-task-bench-'));
  for (let i = 0; i < 2000; i++) {
    const sub = join(dir, 'lib', `pkg${i % 40}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file${i}.js`), `// file ${i}\nexport const value${i} = ${i};\nexport function f${i}(x) { return x + ${i}; }\n`);
  }
  mkdirSync(join(dir, 'src/core'), { recursive: true });
  for (const [i, file] of CORE_FILES.entries())
    writeFileSync(join(dir, file), Array.from({ length: 120 }, (_, l) => `export const line${l} = 'module ${i} line ${l}'; // TODO(bench) ${l}`).join('\n') + '\n');
  mkdirSync(join(dir, 'data'), { recursive: true });
  for (let i = 0; i < 3; i++) writeFileSync(join(dir, 'data', `blob${i}.txt`), `${'x'.repeat(99)}\n`.repeat(10_486));
  writeFileSync(join(dir, '.assistantrc.json'), JSON.stringify({ provider: { name: 'anthropic' } }));
  const git = (...args) => execFileSync('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=bench', ...args], { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'fixture');
  return { dir, reset: () => (git('checkout', '-q', '--', '.'), git('clean', '-qfd')) };
}

/** The four scripted turns of the task. */
const TASK = {
  turns: [
    {
      name: 'reads and grep',
      reply: {
        text: 'Looking around.',
        toolCalls: [
          ...CORE_FILES.map((file, i) => ({ id: `read_${i}`, name: 'Read', input: { file_path: file } })),
          { id: 'grep_1', name: 'Grep', input: { pattern: 'TODO\\(bench\\) 7$' } },
        ],
      },
    },
    { name: 'edit', reply: { toolCalls: [{ id: 'edit_1', name: 'Edit', input: { file_path: CORE_FILES[0], old_string: "line0 = 'module 0 line 0'", new_string: "line0 = 'edited'" } }] } },
    { name: 'bash', reply: { toolCalls: [{ id: 'bash_1', name: 'Bash', input: { command: 'git status --short' } }] } },
    { name: 'answer', reply: { text: 'Done: module0 edited.' } },
  ],
};
const ONE_SHOT = { turns: [{ name: 'answer', reply: { text: 'A short answer.' } }] };

/**
 * Runs argv in bash under GNU time; resolves wall ms, CPU s and peak RSS MiB. GNU time gives the peak
 * RSS; bash's EPOCHREALTIME and `times` give wall and CPU (user + system of the process tree) to the
 * millisecond: GNU time's own are in hundredths of a second, coarse against a 50 ms `node -e 0`.
 */
const MEASURE = 'start=$EPOCHREALTIME; "$@"; status=$?; end=$EPOCHREALTIME; times >&2; echo "wall $start $end" >&2; exit $status';
const seconds = (text) => Number(text.replace(',', '.'));
function timed(argv, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', MEASURE, 'bench', TIME, '-f', 'rss %M', ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${argv.slice(1).join(' ')} exited ${code}:\n${out}\n${err}`));
      const lines = err.trim().split('\n');
      const [, start, end] = lines.at(-1).split(' ');
      // `times` prints the shell's own line, then its children's: `0m0.052s 0m0.011s`.
      const [user, sys] = lines.at(-2).split(' ').map((t) => Number(t.split('m')[0]) * 60 + seconds(t.split('m')[1].replace('s', '')));
      const rss = Number(lines.find((line) => line.startsWith('rss '))?.slice(4));
      resolve({ wall: (seconds(end) - seconds(start)) * 1000, cpu: user + sys, rss: rss / 1024, out });
    });
  });
}

const home = mkdtempSync(join(tmpdir(), 'assistant-task-bench-home-'));
const fake = await startFakeLlm({ fixture: TASK });
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_DATA_HOME: join(home, '.local/share'),
  XDG_CACHE_HOME: join(home, '.cache'),
  ASSISTANT_CONFIG_DIR: join(home, '.config/assistant'),
  ASSISTANT_DATA_DIR: join(home, '.local/share/assistant'),
  ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
  ANTHROPIC_API_KEY: 'bench-key',
  NO_COLOR: '1',
};
for (const key of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ASSISTANT_LOG_LEVEL', 'ASSISTANT_LOG_FILE']) delete env[key];
const fixture = buildFixture();

const cases = [
  ['node -e 0', [process.execPath, '-e', '0']],
  ['assistant --version', [process.execPath, cli, '--version']],
  ['one-shot answer, no tools', [process.execPath, cli, '-p', 'Say something short.', '--trust-project'], ONE_SHOT],
  ['scripted 4-turn task', [process.execPath, cli, '-p', 'Edit module0 and check git status.', '--permission-mode', 'bypass', '--trust-project'], TASK],
];

const results = [];
try {
  // Round by round, each case once per round: the machine's load changes from minute to minute, and
  // a ratio to `node -e 0` means something only when both were measured under the same.
  const samples = cases.map(() => []);
  for (let round = 0; round < runs + 1; round++)
    for (const [index, [, argv, script]] of cases.entries()) {
      fixture.reset();
      if (script) {
        fake.setFixture(script);
        fake.reset();
      }
      const sample = await timed(argv, { cwd: fixture.dir, env });
      if (script === TASK && !sample.out.includes('Done: module0 edited.')) throw new Error(`the task did not finish:\n${sample.out}`);
      if (round > 0) samples[index].push(sample); // the first round warms the file cache and the code cache
    }
  for (const [index, [name]] of cases.entries()) {
    const taken = samples[index];
    results.push({ name, wall: median(taken.map((s) => s.wall)), cpu: median(taken.map((s) => s.cpu)), rss: Math.max(...taken.map((s) => s.rss)) });
  }
} finally {
  await fake.close();
  rmSync(fixture.dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
}

const [base] = results;
const ratio = (r, key) => (r[key] / Math.max(base[key], 1e-3)).toFixed(2);
const rows = results.map((r) => `| ${r.name} | ${(r.wall / 1000).toFixed(3)} | ${ratio(r, 'wall')}x | ${r.cpu.toFixed(3)} | ${ratio(r, 'cpu')}x | ${r.rss.toFixed(0)} |`);
const task = results.at(-1);
const oneShot = results[2];
const verdict = (ok) => (ok ? 'met' : 'NOT met');
const md = `## A scripted task end to end (bench/task.bench.mjs)

${machine()}; medians of ${runs} rounds after one warm-up round, each round running every case
once, the fixture reset between runs; wall time and CPU (user + system of the process tree) to the
millisecond from bash, peak RSS from GNU time. The fixture: a git repository of 2,000 small files,
8 core files and 3 files of 1 MB. The task, scripted by the fake LLM server: 8
parallel Reads and a Grep, an Edit, a Bash, an answer (bypass mode, headless).

| run | wall s | vs node | CPU s | vs node | peak RSS MiB |
|---|---|---|---|---|---|
${rows.join('\n')}

Goals: the task within 5x of \`node -e 0\` in wall (${verdict(task.wall <= 5 * base.wall)}, ${ratio(task, 'wall')}x) and CPU
(${verdict(task.cpu <= 5 * Math.max(base.cpu, 1e-3))}, ${ratio(task, 'cpu')}x) and under 100 MiB (${verdict(task.rss <= 100)}, ${task.rss.toFixed(0)} MiB);
a one-shot answer within 2x (${verdict(oneShot.wall <= 2 * base.wall)}, ${ratio(oneShot, 'wall')}x).`;
writeSection('task', md);
console.log(md);
