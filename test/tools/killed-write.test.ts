import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeProject } from '../support/project.js';
import { kernelFor, runOne } from './helpers.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/write-big.mjs', import.meta.url));
const temps = (dir: string) => readdirSync(dir).filter((name) => name.includes('.assistant-') && name.endsWith('.tmp'));

describe('a write killed half-way', () => {
  it('leaves the old file whole, and the next write clears the dead temp file', async () => {
    const root = makeProject({ 'target.txt': 'the original content\n' });
    const child = spawn(process.execPath, [SCRIPT, root, '128'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Kill the process the moment its temp file exists: the write is under way.
    let sawTemp = false;
    const deadline = Date.now() + 25_000;
    while (Date.now() < deadline && child.exitCode === null) {
      if (output.includes('read') && temps(root).length) {
        sawTemp = true;
        child.kill('SIGKILL');
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    const signal = await exited;
    expect(output).not.toContain('finished');
    expect(sawTemp).toBe(true);
    expect(signal).toBe('SIGKILL');
    expect(readFileSync(`${root}/target.txt`, 'utf8')).toBe('the original content\n');

    const { kernel } = await kernelFor(root);
    try {
      await runOne(kernel, 'Read', { file_path: 'target.txt' });
      const result = await runOne(kernel, 'Write', { file_path: 'target.txt', content: 'new\n' });
      expect(result.isError).toBeUndefined();
      expect(temps(root)).toEqual([]);
      expect(readFileSync(`${root}/target.txt`, 'utf8')).toBe('new\n');
    } finally {
      await kernel.shutdown();
    }
  });
});
