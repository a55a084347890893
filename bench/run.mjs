// Runs every bench/*.bench.mjs in turn (npm run bench builds first). Each prints its own results.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv[2];
let failed = false;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only))).sort()) {
  console.log(`\n# ${file}\n`);
  const { status } = spawnSync(process.execPath, ['--expose-gc', `${dir}/${file}`], { stdio: 'inherit' });
  if (status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
