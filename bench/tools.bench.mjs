// Tool runtime benchmarks (issue 4): pool dispatch overhead, parallel vs serial reads, main-thread
// event-loop delay while Grep scans a 50,000-file tree, Grep vs plain ripgrep, Glob vs fd/find.
// Prints a markdown section for docs/benchmarks.md. Only local files; no network.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadConfig } from '../dist/config/load.js';
import { createKernel } from '../dist/core/kernel/kernel.js';

const NOOP = new URL('./fixtures/noop.worker.mjs', import.meta.url).href;
const allowAll = { name: 'bench-allow', apply: (k) => k.hooks.permission.tapPromise('bench-allow', async () => ({ behavior: 'allow', reason: 'bench', layer: 'bench' })) };
const noopTool = {
  name: 'bench-noop',
  apply: (k) => k.tools.register({ name: 'Noop', description: 'does nothing', inputSchema: { type: 'object' }, access: 'read', risk: { category: 'read' }, module: NOOP }),
};

async function kernelFor(root, grepBackend = 'auto') {
  const config = await loadConfig({ cwd: root, noUserConfig: true, flags: { plugins: [['tools-fs', { grepBackend }]] } });
  return createKernel({ config, headless: true, extraPlugins: [allowAll, noopTool].map((plugin) => ({ plugin, options: {}, source: 'bench', listedIn: 'bench' })) });
}

let ids = 0;
const ctx = () => ({ mode: 'default', signal: new AbortController().signal, turn: 1, sessionId: 'bench' });
const call = (name, input) => ({ type: 'tool_call', id: `b${++ids}`, name, input });
const run = (kernel, calls) => kernel.runToolCalls(calls, ctx());
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(x < 1 ? 3 : 1)} ms`;
async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
function has(command) {
  return spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0;
}

const rows = [];
const row = (what, result, target = '') => {
  rows.push(`| ${what} | ${result} | ${target} |`);
  console.error(`${what}: ${result}`);
};

// 1. Dispatch overhead of a no-op worker tool through the whole pipeline.
{
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'bench-noop-')));
  const kernel = await kernelFor(root);
  for (let i = 0; i < 200; i++) await run(kernel, [call('Noop', {})]);
  const samples = [];
  for (let i = 0; i < 3000; i++) samples.push(await time(() => run(kernel, [call('Noop', {})])));
  row('No-op tool call through the pipeline and pool (median of 3000)', ms(median(samples)), '< 0.5 ms');
  await kernel.shutdown();
  rmSync(root, { recursive: true, force: true });
}

// 2. Eight reads of 1 MB files: one batch (parallel) vs one call at a time.
{
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'bench-read-')));
  const line = `${'r'.repeat(99)}\n`;
  for (let i = 0; i < 8; i++) writeFileSync(join(root, `f${i}.txt`), line.repeat(10_486));
  const kernel = await kernelFor(root);
  const reads = () => Array.from({ length: 8 }, (_, i) => call('Read', { file_path: `f${i}.txt`, limit: 20_000 }));
  await run(kernel, reads());
  const parallel = [];
  const serial = [];
  for (let round = 0; round < 20; round++) {
    parallel.push(await time(() => run(kernel, reads())));
    serial.push(await time(async () => {
      for (const c of reads()) await run(kernel, [c]);
    }));
  }
  row('8 Reads of 1 MB files in one batch (median of 20)', ms(median(parallel)));
  row('The same 8 Reads one after another (median of 20)', `${ms(median(serial))} (${(median(serial) / median(parallel)).toFixed(2)}x the batch)`);
  await kernel.shutdown();
  rmSync(root, { recursive: true, force: true });
}

// 3-5. A 50,000-file tree: event-loop delay during Grep, Grep vs rg, Glob vs fd/find.
const tree = realpathSync(mkdtempSync(join(tmpdir(), 'bench-tree-')));
for (let d = 0; d < 500; d++) {
  const dir = join(tree, `pkg${d % 20}`, `mod${d}`);
  mkdirSync(dir, { recursive: true });
  for (let f = 0; f < 100; f++) {
    const needles = Array.from({ length: 10 }, (_, n) => ((d * 100 + f) % 97 === n ? `needle${n}` : 'hay')).join(' ');
    writeFileSync(join(dir, `file-${f}.${f % 2 ? 'ts' : 'js'}`), `export const value${f} = ${f};\n// ${needles}\nfunction f${f}() { return value${f} * 2; }\n`);
  }
}
const rgAvailable = has('rg');
for (const backend of rgAvailable ? ['ripgrep', 'scanner'] : ['scanner']) {
  const kernel = await kernelFor(tree, backend);
  await run(kernel, [call('Noop', {})]);
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  // A search is watched from its second time: the repeat starts the watcher on the whole tree.
  await run(kernel, [call('Grep', { pattern: 'needle0' })]);
  await run(kernel, [call('Grep', { pattern: 'needle0' })]);
  histogram.disable();
  const first = histogram.percentile(99) / 1e6;
  while (!kernel.files.watching([tree])) await new Promise((r) => setTimeout(r, 50));
  histogram.reset();
  histogram.enable();
  for (let i = 1; i < 6; i++) await run(kernel, [call('Grep', { pattern: `needle${i}`, output_mode: 'content' })]);
  histogram.disable();
  row(`Main-thread event-loop delay p99, first Grep of the 50,000-file tree and its repeat (${backend}; the repeat starts the file watcher)`, ms(first), '< 20 ms');
  row(`Main-thread event-loop delay p99, 5 more Greps (${backend}; watcher ready)`, ms(histogram.percentile(99) / 1e6), '< 20 ms');
  if (backend === 'ripgrep') {
    const grep = [];
    const plain = [];
    const same = [];
    // The flags Grep passes (see plugins/tools-fs/grep-rg.ts), to tell flag cost from wrapper cost.
    const grepFlags = ['--no-config', '--color=never', '--no-messages', '--null', '--with-filename', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-exclude', '--no-ignore-global', '--glob', '!.git', '--files-with-matches'];
    const rg = (args) => time(async () => spawnSync('rg', args, { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }));
    for (let i = 0; i < 20; i++) {
      const pattern = `needle${i % 10}${i >= 10 ? '\\b' : ''}`;
      plain.push(await rg(['-l', '--hidden', pattern, tree]));
      grep.push(await time(() => run(kernel, [call('Grep', { pattern })])));
      same.push(await rg([...grepFlags, '--regexp', pattern, '--', tree]));
    }
    row('Grep (files_with_matches, ripgrep backend) on the tree (median of 20, interleaved with rg)', ms(median(grep)));
    row('Plain `rg -l --hidden` on the same tree (median of 20)', `${ms(median(plain))} (Grep is ${(median(grep) / median(plain)).toFixed(2)}x)`, 'Grep within 1.2x');
    row('`rg` with the flags Grep passes (median of 20)', `${ms(median(same))} (Grep is ${(median(grep) / median(same)).toFixed(2)}x)`);
  } else {
    const scan = [];
    for (let i = 0; i < 5; i++) scan.push(await time(() => run(kernel, [call('Grep', { pattern: `needle${i}`, glob: i % 2 ? '*.ts' : '*.js' })])));
    row('Grep with the built-in scanner on the tree (median of 5)', ms(median(scan)));
    const globs = [];
    const finds = [];
    const fds = [];
    const fd = has('fd') ? 'fd' : has('fdfind') ? 'fdfind' : undefined;
    for (let i = 0; i < 10; i++) {
      globs.push(await time(() => run(kernel, [call('Glob', { pattern: `**/file-${i}*.ts` })])));
      finds.push(await time(async () => spawnSync('find', [tree, '-name', `file-${i}*.ts`], { stdio: ['ignore', 'pipe', 'ignore'] })));
      if (fd) fds.push(await time(async () => spawnSync(fd, ['-g', `file-${i}*.ts`, tree], { stdio: ['ignore', 'pipe', 'ignore'] })));
    }
    row('Glob `**/file-N*.ts` on the tree (median of 10)', ms(median(globs)));
    row('`find -name` on the same tree (median of 10)', `${ms(median(finds))} (Glob is ${(median(globs) / median(finds)).toFixed(2)}x)`);
    if (fd) row('`fd -g` on the same tree (median of 10)', `${ms(median(fds))} (Glob is ${(median(globs) / median(fds)).toFixed(2)}x)`);
  }
  await kernel.shutdown();
}
rmSync(tree, { recursive: true, force: true });

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`## Tool runtime (\`bench/tools.bench.mjs\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${availableParallelism()} cores (${cpu}), Node ${process.version}${rgAvailable ? `, ${spawnSync('rg', ['--version']).stdout.toString().split('\n')[0]}` : ', no ripgrep'}.
Run with \`npm run bench -- tools\`.

| measurement | result | target |
|---|---|---|
${rows.join('\n')}
`);
