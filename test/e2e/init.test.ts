// `assistant init` (issue #19): the model writes AGENTS.md through the normal agent loop, from the
// project map and the manifest files; headless, only that one Write runs without approval.
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, tempDir } from '../support/project.js';
import { gitProject, requestText, sharedFakeLlm } from './support.js';

const fake = sharedFakeLlm();

const PROJECT = {
  'package.json': JSON.stringify({ name: 'shop', type: 'module', scripts: { test: 'vitest run', lint: 'eslint src', 'test:one': 'vitest run -t' } }, null, 2),
  Makefile: 'check:\n\tnpm run lint && npm test\n',
  '.github/workflows/ci.yml': 'jobs:\n  test:\n    steps:\n      - run: make check\n',
  'README.md': '# shop\nA tiny shop.\n',
  'CLAUDE.md': 'Prices are integers in cents.\n',
  'src/cart.js': 'export const total = (items) => items.reduce((a, i) => a + i.price, 0);\n',
  '.env': 'STRIPE_KEY=sk_live_do_not_send\n',
};

const AGENTS = '# AGENTS.md\nGuides coding agents working in this repository.\n\n## Commands\n- `make check`\n';

/** Runs `assistant init` against the fake server. */
function init(dir: string, args: string[] = []) {
  return runCli(['init', ...args], { cwd: dir, env: isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL }), timeoutMs: 100_000 });
}

/** The model writes `calls` in one reply, then says it is done. */
function scriptWrites(calls: Array<{ id: string; name: string; input: Record<string, unknown> }>) {
  fake.script({
    turns: [
      { name: 'write', when: { userText: 'Write an AGENTS.md for this project' }, reply: { text: 'Writing it.', toolCalls: calls } },
      { name: 'done', when: { toolResultFor: calls.at(-1)!.id }, reply: { text: 'AGENTS.md covers commands and layout.' } },
    ],
    fallback: { text: 'UNEXPECTED REQUEST' },
  });
}

describe('assistant init', () => {
  it('sends the map and the manifests, and writes AGENTS.md through the Write tool', async () => {
    const dir = gitProject(PROJECT);
    scriptWrites([{ id: 'w', name: 'Write', input: { file_path: 'AGENTS.md', content: AGENTS } }]);
    const r = await init(dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('AGENTS.md covers commands and layout.\n');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe(AGENTS);

    const first = requestText(fake.server.requests[0]!);
    expect(first).toContain('<project-map>'); // the map, from the system prompt
    expect(first).toContain('cart.js');
    expect(first).toContain('vitest run -t'); // package.json
    expect(first).toContain('check:\\n\\tnpm run lint'); // Makefile
    expect(first).toContain('run: make check'); // the CI workflow
    expect(first).toContain('Prices are integers in cents.'); // CLAUDE.md, to carry over
    expect(first).toContain(`There is no AGENTS.md yet`);
    expect(first).not.toContain('sk_live_do_not_send');
  });

  it('refuses to start over an existing AGENTS.md without --force; with it, the agent may rewrite it', async () => {
    const dir = gitProject({ ...PROJECT, 'AGENTS.md': 'old notes\n' });
    scriptWrites([{ id: 'w', name: 'Write', input: { file_path: 'AGENTS.md', content: AGENTS } }]);
    const refused = await init(dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`ASSISTANT_USAGE: ${join(dir, 'AGENTS.md')} already exists; update it with /init in the interactive terminal`);
    expect(fake.server.requests).toHaveLength(0);
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe('old notes\n');

    fake.script({
      turns: [
        { name: 'read', when: { userText: 'Write an AGENTS.md' }, reply: { toolCalls: [{ id: 'r', name: 'Read', input: { file_path: 'AGENTS.md' } }] } },
        { name: 'write', when: { toolResultFor: 'r' }, reply: { toolCalls: [{ id: 'w', name: 'Write', input: { file_path: 'AGENTS.md', content: AGENTS } }] } },
        { name: 'done', when: { toolResultFor: 'w' }, reply: { text: 'Updated.' } },
      ],
    });
    const forced = await init(dir, ['--force']);
    expect(forced.code).toBe(0);
    expect(requestText(fake.server.requests[0]!)).toContain('already exists: read it first');
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe(AGENTS);
  });

  it('allows nothing else without approval: other files, AGENTS.md elsewhere, through a symlink, or in plan mode', async () => {
    // Room for four refusals in a row (the default stops the run after three).
    const dir = gitProject({ ...PROJECT, '.assistantrc': JSON.stringify({ limits: { maxToolFailures: 10 } }) });
    scriptWrites([
      { id: 'rc', name: 'Write', input: { file_path: '.assistantrc', content: '{"permissions":{"mode":"bypass"}}' } },
      { id: 'src', name: 'Write', input: { file_path: 'src/evil.js', content: 'x' } },
      { id: 'sub', name: 'Write', input: { file_path: 'src/AGENTS.md', content: 'x' } },
      { id: 'bash', name: 'Bash', input: { command: 'echo hi > AGENTS.md' } },
    ]);
    const r = await init(dir, ['--trust-project']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, '.assistantrc'), 'utf8')).not.toContain('bypass');
    for (const file of [ 'src/evil.js', 'src/AGENTS.md', 'AGENTS.md']) expect(existsSync(join(dir, file)), file).toBe(false);
    expect(r.stderr.match(/^denied: /gm)).toHaveLength(4);

    scriptWrites([{ id: 'w', name: 'Write', input: { file_path: 'AGENTS.md', content: AGENTS } }]);
    const plan = await init(dir, ['--permission-mode', 'plan']);
    expect(plan.stderr).toContain('denied: Write: plan mode is read-only');
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(false);

    const outside = tempDir('assistant-init-outside-');
    symlinkSync(join(outside, 'planted.md'), join(dir, 'AGENTS.md'));
    scriptWrites([{ id: 'w', name: 'Write', input: { file_path: 'AGENTS.md', content: AGENTS } }]);
    const linked = await init(dir, ['--force']);
    expect(linked.stderr).toMatch(/^denied: Write: /m);
    expect(existsSync(join(outside, 'planted.md'))).toBe(false);
  });
});
