// `assistant-fake-llm`, the package's bin for the fake LLM server: plugin authors start it for
// end-to-end runs of the CLI. test/e2e/packages.test.ts runs the installed one against the CLI.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/project.js';

const BIN = fileURLToPath(new URL('../../dist/bin/assistant-fake-llm.js', import.meta.url));

describe('assistant-fake-llm', () => {
  it('serves a fixture, printing the base URLs to point a provider at, until SIGTERM', async () => {
    const fixture = join(tempDir(), 'fixture.json');
    writeFileSync(fixture, JSON.stringify({ fallback: { text: 'from the bin' } }));
    const child = spawn(process.execPath, [BIN, '--fixture', fixture], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const match = /^\s*ANTHROPIC_BASE_URL=(\S+)$/m.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const reply = await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(((await reply.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe('from the bin');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('names itself in its usage, and answers a missing fixture with exit 2', () => {
    const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    expect(help).toMatchObject({ status: 0, stdout: 'usage: assistant-fake-llm --fixture <file.json> [--port N] [--host 127.0.0.1]\n' });
    const bare = spawnSync(process.execPath, [BIN], { encoding: 'utf8' });
    expect(bare.status).toBe(2);
    expect(bare.stderr).toContain('assistant-fake-llm: --fixture is required');
  });
});
