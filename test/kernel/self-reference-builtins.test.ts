import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, makeProject } from '../support/project.js';

// The self-reference hooks (node:module `register`) run on a thread of their own, and every later
// import pays a round trip to it: only a plugin from outside the package may install them. The core
// split moved the loader one folder down, and every built-in counted as "outside" (a one-shot answer
// spent ~0.6 s of CPU and a thread on them). Checked in a child process: hooks are process-wide.
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const probe = `
const dist = process.argv[2];
const { loadConfig } = await import(dist + 'config/load.js');
const { createKernel } = await import(dist + 'core/kernel/kernel.js');
const kernel = await createKernel({ config: await loadConfig({ cwd: process.cwd(), env: process.env }), headless: true });
let selfImport;
try {
  await import('@assistant-cli/assistant');
  selfImport = 'resolved';
} catch (error) {
  selfImport = error.code;
}
console.log(JSON.stringify({ plugins: kernel.plugins.length, selfImport }));
`;

describe('the self-reference hooks', () => {
  it('are not installed when only built-in plugins load', async () => {
    const dir = makeProject({ 'probe.mjs': probe, '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }) });
    const { stdout } = await promisify(execFile)(process.execPath, ['probe.mjs', dist], { cwd: dir, env: { ...isolatedEnv(), ANTHROPIC_API_KEY: 'k' }, timeout: 60_000 });
    const result = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(result.plugins).toBeGreaterThan(10);
    // Outside the repository nothing resolves the package's name, unless the hooks were installed.
    expect(result.selfImport).toBe('ERR_MODULE_NOT_FOUND');
  });
});
