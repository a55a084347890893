import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, Stage } from '../../dist/core/index.js';
import { agentScript } from './support/agent-script.js';
import { contextSession, runPrompts } from './support/session.js';
import { tempDir, writeFiles } from '../support/project.js';
import { turnRequests } from './support/inspect.js';

const provider = { name: 'scripted', model: 'claude-sonnet-4-5' };
let userConfig: string;
beforeAll(() => {
  // The plugin reads the user's config dir from the environment, as the CLI does.
  userConfig = tempDir('assistant-user-config-');
  process.env.ASSISTANT_CONFIG_DIR = userConfig;
  writeFileSync(join(userConfig, 'ASSISTANT.md'), 'USER-LEVEL: answer tersely.');
});

const memorySection = (system: Array<{ id: string; text: string }>) => system.find((s) => s.id === 'memory')?.text ?? '';

describe('memory files', () => {
  it('skips a memory file that is not a regular file (a FIFO) instead of blocking the start, and reads the others', async () => {
    const dir = tempDir('assistant-memory-fifo-');
    const s = await contextSession({ dir, rc: { provider }, files: { 'AGENTS.md': 'PROJECT-AGENTS: still read.', 'CLAUDE.md': 'placeholder' }, reply: agentScript({ turnsPerPrompt: 0 }) });
    rmSync(join(dir, 'CLAUDE.md'));
    execFileSync('mkfifo', [join(dir, 'CLAUDE.md')]);
    await runPrompts(s.runner, 1);
    const text = memorySection(turnRequests(s.scripted.requests)[0]!.request.system);
    expect(text).toContain('PROJECT-AGENTS: still read.');
    expect(text).not.toContain('placeholder');
  });

  it('reads ASSISTANT.md, AGENTS.md and CLAUDE.md from the user dir and from the repository root down to the project, with @imports', async () => {
    const s = await contextSession({
      rc: { provider },
      files: {
        'AGENTS.md': 'PROJECT-AGENTS: run npm test. See @docs/style.md and @./missing.md, mail me@example.com, install @types/node.',
        'CLAUDE.md': 'PROJECT-CLAUDE: never edit generated files.',
        'docs/style.md': 'STYLE: two-space indent. Also @../secrets/../docs/extra.md',
        'docs/extra.md': 'EXTRA: nested import.',
        'README.md': 'not memory',
      },
      reply: agentScript({ turnsPerPrompt: 0 }),
    });
    await runPrompts(s.runner, 2);
    const [first, second] = turnRequests(s.scripted.requests);
    const text = memorySection(first!.request.system);
    const order = ['USER-LEVEL', 'PROJECT-AGENTS', 'STYLE', 'EXTRA', 'PROJECT-CLAUDE'].map((m) => text.indexOf(m));
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]!))).toBe(true);
    expect(text).toContain('<memory-file path="docs/style.md" scope="project" imported-by="AGENTS.md">');
    expect(text).not.toContain('not memory');
    expect(first!.request.system.find((s) => s.id === 'memory')).toMatchObject({ part: 'memory' });
    // Byte-stable between requests.
    expect(JSON.stringify(second!.request.system)).toBe(JSON.stringify(first!.request.system));
    // /memory lists them, with what could not be imported.
    s.kernel.hooks.commands.call(s.kernel.commands);
    const listing = String(await s.kernel.commands.slash('memory')!.run('', { print: () => {} }));
    expect(listing).toMatch(/^1\. \[user\] .*ASSISTANT\.md · \d+ tokens$/m);
    expect(listing).toMatch(/\[project\] .*docs\/extra\.md \(imported by .*docs\/style\.md\)/);
    expect(listing).toContain('warning: ');
    expect(listing).toMatch(/AGENTS\.md: @.*missing\.md does not exist/);
    expect(listing).not.toContain('example.com');
    expect(listing).not.toContain('types/node');
  });

  it('walks from the repository root down to a project in a subfolder, and into the working directory', async () => {
    const repo = tempDir();
    mkdirSync(join(repo, '.git'));
    writeFiles(repo, {
      'AGENTS.md': 'REPO-ROOT rules.',
      'packages/app/.assistantrc': JSON.stringify({ provider }),
      'packages/app/ASSISTANT.md': 'APP rules.',
      'packages/app/src/ASSISTANT.md': 'SRC rules.',
      'packages/other/ASSISTANT.md': 'OTHER rules.',
    });
    const { loadConfig } = await import('../../dist/config/load.js');
    const { createKernel } = await import('../../dist/core/kernel/kernel.js');
    const { env } = await import('./support/session.js');
    const kernel = await createKernel({ config: await loadConfig({ cwd: join(repo, 'packages/app/src'), env }), headless: true });
    const system = await kernel.hooks.systemPrompt.promise([], { kind: 'turn' });
    const text = memorySection(system);
    expect(text.indexOf('REPO-ROOT')).toBeLessThan(text.indexOf('APP rules'));
    expect(text.indexOf('APP rules')).toBeLessThan(text.indexOf('SRC rules'));
    expect(text).toContain('scope="directory"');
    expect(text).not.toContain('OTHER rules');
  });

  it('never imports files outside the project or ones the permission policy denies, and reads a symlinked file once', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.md'), 'OUTSIDE-SECRET');
    const deny = definePlugin({
      name: 'deny-env',
      apply: (k) =>
        k.hooks.permission.tap({ name: 'deny-env', stage: Stage.GUARD }, (request) =>
          request.paths.some((p) => p.endsWith('.env')) ? { behavior: 'deny', reason: 'secrets are never read', layer: 'deny-env' } : undefined,
        ),
    });
    const s = await contextSession({
      rc: { provider },
      plugins: [deny],
      files: { 'AGENTS.md': `Rules. @${join(outside, 'secret.md')} @.env @link.md`, '.env': 'API_KEY=sk-live-123' },
      reply: agentScript({ turnsPerPrompt: 0 }),
    });
    symlinkSync(join(outside, 'secret.md'), join(s.dir, 'link.md'));
    symlinkSync(join(s.dir, 'AGENTS.md'), join(s.dir, 'CLAUDE.md'));
    await runPrompts(s.runner, 1);
    const text = memorySection(turnRequests(s.scripted.requests)[0]!.request.system);
    expect(text).not.toContain('OUTSIDE-SECRET');
    expect(text).not.toContain('sk-live-123');
    expect(text.match(/Rules\./g)).toHaveLength(1);
    s.kernel.hooks.commands.call(s.kernel.commands);
    const listing = String(await s.kernel.commands.slash('memory')!.run('', { print: () => {} }));
    expect(listing).toMatch(/secret\.md is outside/);
    expect(listing).toMatch(/link\.md is outside/);
    // The built-in policy's secret guard answers before the test's own deny layer.
    expect(listing).toMatch(/not read \(reads \S+\/\.env: \.env holds environment secrets/);
  });

  it('attaches the memory of a directory the agent works in to the first tool result there, leaving the prefix alone', async () => {
    const s = await contextSession({
      rc: { provider },
      files: { 'ASSISTANT.md': 'TOP.', 'packages/api/AGENTS.md': 'API-DIR: use zod for validation.', 'packages/api/src/x.ts': 'x' },
      reply: agentScript({ turnsPerPrompt: 2, call: () => ({ name: 'Read', input: { file_path: 'packages/api/src/x.ts' } }) }),
    });
    await runPrompts(s.runner, 1);
    const results = s.session.messages.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content));
    expect(results[0]).toContain('API-DIR: use zod for validation.');
    expect(results[0]).toContain('scope=\\"directory\\"');
    expect(results[1]).not.toContain('API-DIR');
    const turns = turnRequests(s.scripted.requests);
    expect(new Set(turns.map((t) => JSON.stringify(t.request.system))).size).toBe(1);
    expect(memorySection(turns[0]!.request.system)).not.toContain('API-DIR');
  });

  it('opens a memory file in $EDITOR with /memory open, creating it, and reads it again', async () => {
    const s = await contextSession({ rc: { provider }, reply: agentScript({ turnsPerPrompt: 0 }) });
    const editor = join(s.dir, 'fake-editor.sh');
    writeFileSync(editor, '#!/bin/sh\necho "EDITED: prefer pnpm." >> "$1"\n', { mode: 0o755 });
    process.env.EDITOR = editor;
    try {
      s.kernel.hooks.commands.call(s.kernel.commands);
      const out = String(await s.kernel.commands.slash('memory')!.run('open project', { print: () => {} }));
      expect(out).toBe(`${join(s.dir, 'ASSISTANT.md')} saved; the memory is read again for the next request`);
      expect(readFileSync(join(s.dir, 'ASSISTANT.md'), 'utf8')).toMatch(/^# Memory\n[\s\S]*EDITED: prefer pnpm\.\n$/);
      await runPrompts(s.runner, 1);
      expect(memorySection(turnRequests(s.scripted.requests)[0]!.request.system)).toContain('EDITED: prefer pnpm.');
    } finally {
      delete process.env.EDITOR;
    }
  });
});
