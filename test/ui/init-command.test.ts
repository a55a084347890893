// `/init` in the real terminal (issue #19): one short line in the transcript, the whole prompt (map
// and manifests) to the model, and the Write of AGENTS.md, a memory file, asked with its content.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, requestText, sharedFakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import { TmuxTerminal, tmuxAvailable } from './tmux.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && !process.env.CI) console.log('skipping the /init terminal test: tmux is not installed');
const fake = sharedFakeLlm();
let term: TmuxTerminal | undefined;
afterEach(() => term?.close());

const AGENTS = '# AGENTS.md\nGuides coding agents working in this repository.\n\n## Commands\n- `npm test`\n';

describe.skipIf(!hasTmux && !process.env.CI)('/init in the terminal', () => {
  it('sends the manifests behind a one-line prompt and asks before writing AGENTS.md', async () => {
    fake.script({
      turns: [
        { name: 'write', when: { userText: 'Write an AGENTS.md for this project' }, reply: { toolCalls: [{ id: 'w', name: 'Write', input: { file_path: 'AGENTS.md', content: AGENTS } }] } },
        { name: 'done', when: { toolResultFor: 'w' }, reply: { text: 'AGENTS.md is written.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const dir = gitProject({ 'package.json': JSON.stringify({ name: 'demo', dependencies: { '@scope/lib': '1.0.0' }, scripts: { test: 'node --test' } }), 'src/index.js': 'export {};\n' });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
    term = TmuxTerminal.start({ cwd: dir, env, width: 100 });
    await term.waitFor('default mode (shift+tab)');

    term.type('/init focus on the tests');
    term.keys('Enter');
    const screen = await term.waitFor('Allow Write AGENTS.md?');
    expect(screen).toContain('› Write AGENTS.md for this project (/init focus on the tests)');
    expect(screen).not.toContain('"scripts"'); // the manifests go to the model, not the transcript
    expect(screen).toContain('memory file');
    const sent = requestText(fake.server.requests[0]!);
    expect(sent).toContain('node --test');
    expect(sent).toContain('The user adds: focus on the tests');
    expect(existsSync(join(dir, 'AGENTS.md'))).toBe(false);

    term.type('1');
    await term.waitFor('AGENTS.md is written.');
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toBe(AGENTS);
    // `@scope/lib` in the manifest was never taken for an @-mention of a file.
    expect(term.history()).not.toContain('@scope/lib');
  });
});
