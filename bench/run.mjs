// Runs every benchmark script in bench/ (not part of npm test). Each writes its own section of docs/benchmarks.md.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
for (const file of readdirSync(dir).filter((f) => f.endsWith('.mjs') && f !== 'run.mjs').sort()) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  console.log(`\n=== ${file}`);
  const r = spawnSync(process.execPath, [dir + file], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
