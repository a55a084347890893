// /rewind and Esc Esc in the real terminal UI (the built CLI in tmux, the fake LLM, the real tools):
// the list of prompts with their files and commands, the warning that Bash's effects stay, a
// rewind of code and conversation, and a file changed by the user listed before it is overwritten.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, requestText, sharedFakeLlm } from '../e2e/support.js';
import { isolatedEnv } from '../support/project.js';
import { TmuxTerminal, tmuxAvailable } from '../ui/tmux.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && !process.env.CI) console.log('skipping the /rewind tmux test: tmux is not installed');
const fake = sharedFakeLlm();
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

const SESSION = {
  turns: [
    { name: 'one read', when: { userText: 'first change' }, reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'notes.txt' } }] } },
    {
      name: 'one edit',
      when: { toolResultFor: 'r1' },
      reply: {
        toolCalls: [
          { id: 'e1', name: 'Edit', input: { file_path: 'notes.txt', old_string: 'draft', new_string: 'final' } },
          { id: 'w1', name: 'Write', input: { file_path: 'made.txt', content: 'made by the agent\n' } },
        ],
      },
    },
    { name: 'one done', when: { toolResultFor: 'w1' }, reply: { text: 'First change done.' } },
    { name: 'two bash', when: { userText: 'second change' }, reply: { toolCalls: [{ id: 'b2', name: 'Bash', input: { command: 'echo hi > by-bash.txt' } }] } },
    { name: 'two read', when: { toolResultFor: 'b2' }, reply: { toolCalls: [{ id: 'r2', name: 'Read', input: { file_path: 'made.txt' } }] } },
    { name: 'two edit', when: { toolResultFor: 'r2' }, reply: { toolCalls: [{ id: 'e2', name: 'Edit', input: { file_path: 'made.txt', old_string: 'made', new_string: 'changed' } }] } },
    { name: 'two done', when: { toolResultFor: 'e2' }, reply: { text: 'Second change done.' } },
    { name: 'three', when: { userText: 'after the rewind' }, reply: { text: 'Fresh start.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

describe.skipIf(!hasTmux)('/rewind in the terminal UI', () => {
  it('lists the prompts on Esc Esc, rewinds code and conversation, and lists files the user changed before overwriting them', async () => {
    fake.script(SESSION);
    const dir = gitProject({ 'notes.txt': 'a draft note\n' });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
    const term = TmuxTerminal.start({ cwd: dir, env, width: 120, height: 40, args: ['--permission-mode', 'bypass'] });
    terminals.push(term);
    const file = (name: string) => readFileSync(join(dir, name), 'utf8');
    await term.waitFor('bypass');

    term.type('first change');
    term.keys('Enter');
    await term.waitFor('First change done.');
    await term.waitFor('› Ask anything');
    term.type('second change');
    term.keys('Enter');
    await term.waitFor('Second change done.');
    await term.waitFor('› Ask anything');
    expect(file('made.txt')).toBe('changed by the agent\n');
    expect(file('by-bash.txt')).toBe('hi\n');

    // Esc Esc on the empty prompt lists the checkpoints.
    term.keys('Escape');
    term.keys('Escape');
    let screen = await term.waitFor('Checkpoints (a rewind goes back to just before the prompt):');
    expect(screen).toMatch(/1 +\d\d:\d\d +first change +· +2 files: made\.txt, notes\.txt/);
    expect(screen).toMatch(/2 +\d\d:\d\d +second change +· +1 file: made\.txt +· +ran Bash \(not undone by a rewind\)/);
    expect(screen).toContain("Commands' side effects (Bash, writes outside the project) are not undone.");

    // The user edits a file the agent wrote: the rewind lists it and waits for confirmation.
    writeFileSync(join(dir, 'made.txt'), 'my own words\n');
    term.type('/rewind 1');
    term.keys('Enter');
    screen = await term.waitFor('Nothing was restored. To overwrite them: /rewind 1 force');
    expect(screen).toMatch(/the rewind would overwrite them:\n +made\.txt\nNothing was restored/);
    expect(file('made.txt')).toBe('my own words\n');
    expect(file('notes.txt')).toBe('a final note\n');

    term.type('/rewind 1 both force');
    term.keys('Enter');
    screen = await term.waitFor('Rewound code and conversation to before prompt 1');
    await term.waitFor(/Not undone: .*Bash: echo hi > by-bash\.txt/);
    expect(file('notes.txt')).toBe('a draft note\n');
    expect(existsSync(join(dir, 'made.txt'))).toBe(false);
    expect(file('by-bash.txt')).toBe('hi\n'); // commands' effects stay, as the screen said

    // The rewound prompt is back in the input; cleared, the next prompt starts from the rewound (empty) conversation.
    await term.waitFor(/\n› first change\s*\n/);
    term.keys('C-u');
    term.type('after the rewind');
    term.keys('Enter');
    await term.waitFor('Fresh start.');
    const sent = requestText(fake.server.requests.find((q) => q.turn === 'three')!);
    expect(sent).not.toContain('first change');
    expect(sent).not.toContain('second change');
  }, 240_000);
});
