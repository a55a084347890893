#!/usr/bin/env node
// The CLI entry, CommonJS: Node 20 starts a CommonJS main ~10 ms sooner than an ES module one (no
// ES module loader until something is imported). `--version` is answered before anything else is
// loaded, so it costs a bare Node start.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A reader that goes away (`assistant plugins | head`) is not a crash: the rest of the output is dropped.
for (const stream of [process.stdout, process.stderr]) stream.on('error', (error: NodeJS.ErrnoException) => { if (error.code !== 'EPIPE') throw error; });

type Main = (argv: string[], version: string) => Promise<number>;

/**
 * The build's bundle (dist/bundle/main.cjs: the code cache and WebAssembly's baseline compiler, then
 * runtime.cjs), else tsc's tree, with the same two.
 */
async function loadMain(): Promise<Main> {
  const bundled = join(__dirname, '../bundle/main.cjs');
  if (existsSync(bundled)) return (require(bundled) as Record<string, { main: Main }>)['bin/cli.js']!.main;
  const cache = await import('../config/compile-cache.js');
  cache.enableCompileCache(); // Node 22+: compiled code kept between runs
  (await import('../config/wasm-baseline.js')).keepWasmOnBaseline(cache.saveCompileCacheBeforeFlagChange);
  return (await import('./cli.js')).main;
}

const argv = process.argv.slice(2);
const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string };
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(`${version}\n`);
else {
  if (argv.includes('--debug')) process.setSourceMapsEnabled(true); // --debug's stack traces: the TypeScript sources, not the minified bundle
  loadMain()
    .then((main) => main(argv, version))
    .then((code) => (process.exitCode = code));
}
