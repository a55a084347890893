#!/usr/bin/env node
// The CLI entry. `--version` is answered before anything else is imported, so it costs a bare Node start.
import { existsSync, readFileSync } from 'node:fs';

// A reader that goes away (`assistant plugins | head`) is not a crash: the rest of the output is dropped.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });

const argv = process.argv.slice(2);
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(`${version}\n`);
else {
  // The build's bundle (config/bundle-runtime.mjs) when there is one: a few chunks instead of ~350 modules.
  const bundled = new URL('../bundle/bin~cli.js', import.meta.url);
  const { main } = (await import(existsSync(bundled) ? bundled.href : './cli.js')) as typeof import('./cli.js');
  process.exitCode = await main(argv, version);
}
