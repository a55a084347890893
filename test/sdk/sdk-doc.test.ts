// The example of docs/sdk.md, run as a user would: `node changelog.mjs` in a project where the
// package is installed, against the fake LLM server.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** The code block after `<!-- example: name -->` in a doc. */
function example(doc: string, name: string): string {
  const text = readFileSync(join(ROOT, 'docs', doc), 'utf8');
  const match = new RegExp(`<!-- example: ${name.replace('.', '\\.')} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(text);
  if (!match) throw new Error(`docs/${doc} has no example ${name}`);
  return match[1]!;
}

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ fixture: { turns: [] } });
});
afterAll(() => fake.close());

it('runs the example of docs/sdk.md: streams the reply, lets it write, refuses the rest', async () => {
  fake.setFixture({
    turns: [
      { when: { userText: 'CHANGELOG' }, reply: { text: 'Adding it. ', toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'CHANGELOG.md', content: '- Fixed the login.\n' } }] } },
      { when: { toolResultFor: 'w1' }, reply: { toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'git commit -am changelog' } }] } },
      { when: { toolResultContains: 'this script only lets you edit files' }, reply: { text: 'Done; not committed.' } },
    ],
  });
  const dir = makeProject({ 'changelog.mjs': example('sdk.md', 'changelog.mjs') });
  // The package as an installed dependency of the project.
  mkdirSync(join(dir, 'node_modules', '@assistant-cli'), { recursive: true });
  symlinkSync(ROOT, join(dir, 'node_modules', '@assistant-cli', 'assistant'));
  writeFileSync(join(dir, '.assistantrc.json'), JSON.stringify({ provider: { name: 'anthropic', model: 'claude-sonnet-4-6' } }));
  // Not spawnSync: the fake server answers from this process's event loop.
  const run = await promisify(execFile)(process.execPath, ['changelog.mjs'], { cwd: dir, env: isolatedEnv({ ANTHROPIC_BASE_URL: fake.anthropicBaseURL }), timeout: 100_000 });
  expect(run.stdout).toBe('Adding it. Done; not committed.');
  expect(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8')).toBe('- Fixed the login.\n');
  expect(run.stderr).toMatch(/> Write CHANGELOG\.md/);
  expect(run.stderr).toMatch(/\(completed; session [0-9a-f-]{36}\)/);
});
