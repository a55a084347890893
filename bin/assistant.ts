#!/usr/bin/env node
// The CLI entry. `--version` is answered before anything else is imported, so it costs a bare Node start.
import { existsSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// A reader that goes away (`assistant plugins | head`) is not a crash: the rest of the output is dropped.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

const argv = process.argv.slice(2);
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(`${version}\n`);
else {
  // WebAssembly stays on V8's baseline compiler. The bash grammar (the permission engine's shell
  // parser) and undici's HTTP parser are wasm; V8 would re-compile their hot functions with TurboFan
  // in the background (about 0.45 s of CPU for the grammar's lexer alone) and make the process wait
  // for that compile at exit, for parsing that takes microseconds per command on the baseline code
  // (5,000 command parses: 122 ms with Liftoff only, 160 ms with tier-up). Set before any wasm loads.
  setFlagsFromString('--liftoff-only');
  const { main } = (await import(existsSync(new URL('../bundle/bin~cli.js', import.meta.url)) ? '../bundle/bin~cli.js' : './cli.js')) as typeof import('./cli.js'); // the build's bundle (config/bundle-runtime.mjs), else tsc's tree
  process.exitCode = await main(argv, version);
}
