import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI entry. */
export const CLI = fileURLToPath(new URL('../../dist/bin/assistant.cjs', import.meta.url));

/** What a CLI run printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (or the one at `bin`, e.g. an installed copy) with `args` and waits for it to exit. */
export function runCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; bin?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.bin ?? CLI, ...args], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI timed out: assistant ${args.join(' ')}\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 100_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
