// Start-up is lazy: importing and applying the built-in plugins does no real work.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLUGINS } from '../../dist/config/defaults.js';
import { makeProject, tempDir } from '../support/project.js';

const TRACE = fileURLToPath(new URL('../providers/fixtures/trace-imports.mjs', import.meta.url));
const BOOT = fileURLToPath(new URL('./fixtures/boot-defaults.mjs', import.meta.url));
/** Packages that open sockets, spawn workers, watch files or parse with WebAssembly: loaded on first use only. */
const HEAVY = /node_modules\/(piscina|chokidar|ioredis|@anthropic-ai\/sdk|openai|gpt-tokenizer|web-tree-sitter|tree-sitter-bash)\//;

describe('lazy start-up', () => {
  it('booting every built-in opens no socket, watcher, child process or timer and imports no heavy package', async () => {
    const importsFile = join(tempDir(), 'imports.txt');
    const child = spawn(process.execPath, ['--import', TRACE, BOOT], {
      cwd: makeProject({ '.git/HEAD': '', 'src/a.ts': 'export {};\n' }),
      env: { ...process.env, TRACE_IMPORTS_FILE: importsFile },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status, stderr).toBe(0);
    const report = JSON.parse(stdout) as { plugins: number; opened: string[] };
    expect(report.plugins).toBe(DEFAULT_PLUGINS.length);
    expect(report.opened).toEqual([]);
    const heavy = readFileSync(importsFile, 'utf8')
      .split('\n')
      .filter((url) => HEAVY.test(url));
    expect(heavy).toEqual([]);
  });
});
