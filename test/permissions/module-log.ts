import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A module-load hook that appends the URL of every file module the process loads to $LOADED_LOG. */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_LOG, url + '\\n');
  return next(url, context);
}
`;

/** Writes the hook into `dir` and returns the module to pass to `node --import` (registered before anything else). */
export function writeModuleLogHook(dir: string): string {
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  return join(dir, 'register.mjs');
}

/** Runs `node args` and resolves with its stdout; rejects with its output when it exits non-zero. */
export function runNode(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`the child exited ${code}:\n${stdout}\n${stderr}`))));
  });
}
