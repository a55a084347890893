import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kernel, OriginEvent, UserMessage } from '../../dist/core/index.js';
import { mentionedPaths } from '../../dist/plugins/ui-terminal/mentions.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { bootKernel, scriptedConfig } from './support.js';

const env = isolatedEnv();
const DENY_ENV = `export default { name: 'deny-env', apply(k) {
  k.hooks.permission.tapPromise({ name: 'deny-env', stage: -300 }, async (r) =>
    r.paths.some((p) => /\\.env$/i.test(p)) ? { behavior: 'deny', reason: 'secrets are never read', layer: 'deny-env' } : undefined);
} };`;

const prompt = (text: string, origin: 'user' | 'steering' = 'user'): UserMessage => ({ role: 'user', content: [{ type: 'text', text }], meta: { origin } });

async function send(kernel: Kernel, message: UserMessage) {
  const notices: string[] = [];
  kernel.hooks.event.tap('test-notices', (e: OriginEvent) => e.type === 'notice' && notices.push(e.message));
  const out = await kernel.hooks.userPrompt.promise(message, { turn: 0, signal: new AbortController().signal });
  const attached = out.content.slice(message.content.length).map((p) => (p.type === 'text' ? p.text : '')).join('');
  return { out, attached, notices };
}

describe('@ mentions', () => {
  it('finds mentioned paths, leaving sentence punctuation and escaped spaces right', () => {
    expect(mentionedPaths('see @src/a.ts, then @docs/My\\ Notes.md. Mail me@x.org')).toEqual(['src/a.ts', 'docs/My Notes.md']);
    // An MCP resource (`@server:scheme://…`) is the mcp plugin's to attach, never a missing file.
    expect(mentionedPaths('read @everything:demo://nothing/here and @src/a.ts')).toEqual(['src/a.ts']);
  });

  it('attaches a file and lists a folder, after the prompt', async () => {
    const dir = makeProject({ '.assistantrc': scriptedConfig(), 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': '' });
    const kernel = await bootKernel(dir, env);
    const { out, attached, notices } = await send(kernel, prompt('explain @src/a.ts and @src'));
    expect(out.content[0]).toEqual({ type: 'text', text: 'explain @src/a.ts and @src' });
    expect(attached).toContain('<file path="src/a.ts">\nexport const a = 1;\n\n</file>');
    expect(attached).toContain('<directory path="src">\na.ts\nb.ts\n</directory>');
    expect(notices).toEqual([]);
  });

  it('refuses paths that resolve outside the project, symlinks included, and says why', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'notes.txt'), 'private');
    const dir = makeProject({ '.assistantrc': scriptedConfig() });
    symlinkSync(join(outside, 'notes.txt'), join(dir, 'notes.txt'));
    const kernel = await bootKernel(dir, env);
    const { attached, notices } = await send(kernel, prompt(`read @notes.txt and @${join(outside, 'notes.txt')}`));
    expect(attached).toBe('');
    expect(notices).toHaveLength(2);
    expect(notices[0]).toBe(`@notes.txt was not attached: it resolves to ${join(outside, 'notes.txt')}, outside the project`);
  });

  it('respects a permission denial, skips binaries and cuts big files', async () => {
    const dir = makeProject({
      '.assistantrc': scriptedConfig({ plugins: ['./deny-env.mjs'], ui: { mentionMaxBytes: 10 } }),
      'deny-env.mjs': DENY_ENV,
      '.env': 'TOKEN=secret',
      'big.txt': '0123456789abcdef',
    });
    writeFileSync(join(dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    const kernel = await bootKernel(dir, env);
    const { attached, notices } = await send(kernel, prompt('@.env @image.bin @big.txt'));
    expect(attached).not.toContain('secret');
    expect(attached).toContain('<file path="big.txt">\n0123456789\n[truncated: only the first 10 bytes of 16 are attached]\n</file>');
    expect(notices).toEqual(['@.env was not attached: secrets are never read', '@image.bin was not attached: it is a binary file']);
  });

  it('leaves steering messages and words that are not files alone', async () => {
    const dir = makeProject({ '.assistantrc': scriptedConfig(), 'a.ts': 'x' });
    const kernel = await bootKernel(dir, env);
    expect((await send(kernel, prompt('@a.ts', 'steering'))).attached).toBe('');
    expect((await send(kernel, prompt('ping @someone about it'))).attached).toBe('');
  });

  it('works in headless runs too: the model receives the file', async () => {
    const dir = makeProject({ '.assistantrc': scriptedConfig(), 'notes.md': 'remember the milk\n' });
    const result = await runCli(['--trust-project', '-p', 'summarize @notes.md'], { cwd: dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // The script's fallback echoes the newest user message, attachment included.
    expect(result.stdout).toContain('You said: summarize @notes.md');
    expect(result.stdout).toContain('<file path="notes.md">\nremember the milk');
  });
});
