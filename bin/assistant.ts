#!/usr/bin/env node
// The CLI entry. `--version` is answered before anything else is imported, so it costs a bare Node start.
import { existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// A reader that goes away (`assistant plugins | head`) is not a crash: the rest of the output is dropped.
for (const stream of [process.stdout, process.stderr]) stream.on('error', (error: NodeJS.ErrnoException) => { if (error.code !== 'EPIPE') throw error; });

const argv = process.argv.slice(2);
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(`${version}\n`);
else {
  // Wasm (the bash grammar; undici's parser where Node's fetch is used) stays on V8's baseline compiler (TurboFan's re-compile cost
  // ~0.45 s CPU at exit: docs/benchmarks.md). Then the build's bundle (config/bundle-runtime.mjs), else tsc's tree.
  setFlagsFromString('--liftoff-only');
  if (argv.includes('--debug')) process.setSourceMapsEnabled(true); // --debug's stack traces: the TypeScript sources, not the minified bundle
  (await import('../config/compile-cache.js')).enableCompileCache(); // Node 22+: compiled code kept between runs
  const cli = existsSync(new URL('../bundle/bin~cli.js', import.meta.url)) ? '../bundle/bin~cli.js' : './cli.js';
  process.exitCode = await ((await import(cli)) as typeof import('./cli.js')).main(argv, version);
}
