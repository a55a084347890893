// Permission engine: shell-parser load time, per-decision latency, `permissions check --batch`
// throughput, and the false-positive rate on the everyday read-only corpus.
// Run: npm run build && node bench/run.mjs permissions
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { machine, median, percentile, writeSection } from './lib/report.mjs';

// As the CLI does (bin/assistant.ts): the grammar's wasm on V8's baseline compiler. Without it the
// first judgement that loads the grammar waits ~0.8 s for TurboFan.
setFlagsFromString('--liftoff-only');

const dist = (p) => new URL(`../dist/${p}`, import.meta.url).href;
const cli = fileURLToPath(new URL('../dist/bin/assistant.cjs', import.meta.url));
const corpus = (name) =>
  readFileSync(new URL(`../test/permissions/corpus/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.replaceAll('⏎', '\n'));

// A small project with a secret, like the tests' fixture, and a private home and data directory.
const home = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-bench-home-')));
const root = realpathSync(mkdtempSync(join(tmpdir(), 'assistant-bench-perm-')));
for (const [path, content] of Object.entries({
  '.assistantrc': '{}',
  '.env': 'K=1\n',
  'package.json': '{"name":"bench"}',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'src/index.ts': 'export * from "./a";\n',
  'names.txt': 'a\nb\n',
  'data.csv': 'a,1,2\n',
  'list.txt': 'src/a.ts\n',
  'docs/guide.md': '# g\n',
})) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
}
execFileSync('git', ['init', '-q', root]);
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ASSISTANT_CONFIG_DIR: join(home, 'cfg'), ASSISTANT_DATA_DIR: join(home, 'data') };
Object.assign(process.env, { HOME: home, ASSISTANT_DATA_DIR: env.ASSISTANT_DATA_DIR });

const readOnly = corpus('read-only.txt');
const all = [...readOnly, ...corpus('mutating.txt'), ...corpus('blocked.txt'), ...corpus('secrets.txt')];

// In-process: the same path the tool pipeline takes.
const { loadConfig } = await import(dist('config/load.js'));
const { createKernel } = await import(dist('core/kernel/kernel.js'));
const { decidePermission, permissionRequestFor } = await import(dist('core/index.js'));
const kernel = await createKernel({ config: await loadConfig({ cwd: root, env, noUserConfig: true }), logLevel: 'silent' });
await kernel.start();
const bash = kernel.tools.get('Bash');
const decide = (command, mode = 'default') =>
  decidePermission(kernel.hooks, permissionRequestFor(bash, { type: 'tool_call', id: 'b', name: 'Bash', input: { command } }, { projectRoot: root, cwd: root, mode, headless: false }));

// The first judgements: a simple command (the mini parser), then one that needs the grammar.
let t0 = performance.now();
await decide('ls');
const firstSimpleMs = performance.now() - t0;
t0 = performance.now();
await decide('ls > out.txt');
const firstMs = performance.now() - t0;

const cold = [];
for (const command of all) {
  t0 = performance.now();
  await decide(command);
  cold.push(performance.now() - t0);
}
const warm = [];
for (const command of all) {
  t0 = performance.now();
  await decide(command);
  warm.push(performance.now() - t0);
}
let allowed = 0;
for (const command of readOnly) if ((await decide(command)).behavior === 'allow') allowed++;
const falsePositives = readOnly.length - allowed;

// Through the CLI: one process for N requests, start-up included.
const n = Number(process.env.BENCH_BATCH ?? 5000);
const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ tool: 'Bash', input: { command: `${all[i % all.length]} # ${i}` } })).join('\n');
const batchRuns = [];
for (let i = 0; i < 3; i++) {
  t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, 'permissions', 'check', '--batch', '-'], { cwd: root, env, input: lines, encoding: 'utf8', maxBuffer: 1 << 28 });
  batchRuns.push(performance.now() - t0);
  if (r.stdout.trim().split('\n').length !== n) throw new Error(`batch answered ${r.stdout.trim().split('\n').length} of ${n}: ${r.stderr}`);
}
const batchMs = median(batchRuns);

const f = (ms) => ms.toFixed(2);
const md = `## Permission engine (bench/permissions.bench.mjs)

${machine()}. Decisions through \`permissionRequestFor\` → \`decidePermission\` (the tool pipeline's path),
Bash commands from the test corpus (${all.length} commands: everyday reads, mutating, hard-blocked, secret-touching),
a project with a \`.env\` and a git repository.

| measure | value |
|---|---|
| first judgement of a simple command (\`ls\`: the mini parser, no grammar) | ${f(firstSimpleMs)} ms |
| first judgement that needs the grammar (\`ls > out.txt\`: loads web-tree-sitter + tree-sitter-bash) | ${f(firstMs)} ms |
| per decision, first time a command is seen: median / p99 | ${f(median(cold))} / ${f(percentile(cold, 99))} ms |
| per decision, command seen before (parse cached): median / p99 | ${f(median(warm))} / ${f(percentile(warm, 99))} ms |
| \`permissions check --batch\` of ${n.toLocaleString('en')} requests, process start included (median of 3) | ${Math.round(batchMs)} ms (${Math.round(n / (batchMs / 1000)).toLocaleString('en')} decisions/s) |
| false positives on ${readOnly.length} everyday read-only commands (asked or denied in default mode) | ${falsePositives} (${((falsePositives / readOnly.length) * 100).toFixed(1)}%) |

The built-in Bash tool's own definition is judged. The grammar loads on the first command outside
the mini parser's subset, never at start-up. Path facts (symlink resolution,
glob expansion, the secret scan of \`grep -r\` targets) are recomputed for every decision, since files change.`;
writeSection('permissions', md);
console.log(md);
