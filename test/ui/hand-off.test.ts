// Hand-off between surfaces on one session (UC4): a terminal UI in tmux, a headless run that takes
// the session over, and a terminal that resumes it again. All real parts: the built CLI, the
// Anthropic SDK against the fake LLM server, the jsonl store.
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, sharedFakeLlm } from '../e2e/support.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv } from '../support/project.js';
import { conversationOf, storedLines } from '../support/stored-session.js';
import { TmuxTerminal, tmuxAvailable } from './tmux.js';

const hasTmux = tmuxAvailable();
const llm = sharedFakeLlm();
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

const SCRIPT = {
  turns: [
    { name: 'one', when: { userText: 'first prompt' }, reply: { text: 'first answer' } },
    { name: 'two', when: { userText: 'second prompt' }, reply: { text: 'second answer' } },
    { name: 'three', when: { userText: 'third prompt' }, reply: { text: 'third answer' } },
    { name: 'write', when: { userText: 'write the file' }, reply: { text: 'Writing it.', toolCalls: [{ id: 'w1', name: 'Write', input: { file_path: 'new.txt', content: 'x\n' } }] } },
    { name: 'wrote', when: { toolResultFor: 'w1' }, reply: { text: 'done writing' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

/** A project, its environment, and a terminal UI in it that has sent `prompt` and shows `waitFor`. */
async function terminalAfter(prompt: string, waitFor: string) {
  llm.script(SCRIPT);
  const dir = gitProject({ 'README.md': '# demo\n' });
  const env = isolatedEnv({ ANTHROPIC_BASE_URL: llm.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
  const term = TmuxTerminal.start({ cwd: dir, env, width: 100 });
  terminals.push(term);
  await term.waitFor('default mode');
  term.type(prompt);
  term.keys('Enter');
  await term.waitFor(waitFor);
  const listed = await runCli(['sessions', 'list', '--json'], { cwd: dir, env });
  const [row] = JSON.parse(listed.stdout) as Array<{ id: string; inUseBy?: string }>;
  return { dir, env, term, row: row! };
}

describe.skipIf(!hasTmux)('hand-off between surfaces', () => {
  it('terminal → headless --take-over → terminal: the losing terminal says where the session went, and every event is stored once', async () => {
    const { dir, env, term: first, row } = await terminalAfter('first prompt', 'first answer');
    await first.waitFor('› Ask anything');
    expect(row.inUseBy).toBeTruthy();
    const id = row.id;

    // Without --take-over the headless run is refused: the terminal holds the session.
    const refused = await runCli(['-p', '--resume', id, 'second prompt'], { cwd: dir, env });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('ASSISTANT_SESSION_IN_USE');

    const headless = await runCli(['-p', '--resume', id, '--take-over', 'second prompt'], { cwd: dir, env });
    expect(headless.stderr).toBe('');
    expect(headless.stdout).toContain('second answer');
    expect(headless.code).toBe(0);

    // The first terminal noticed, said where the session went, and left (it takes no more input).
    const gone = await first.waitFor('[exit 1]', { inHistory: true });
    expect(gone).toMatch(new RegExp(`session ${id.slice(0, 8)} continued in headless on host ${hostname()} \\(pid \\d+\\)`));
    expect(gone).toContain(`assistant --resume ${id}`);

    const again = TmuxTerminal.start({ cwd: dir, env, width: 100, args: ['--resume', id] });
    terminals.push(again);
    await again.waitFor('default mode');
    again.type('third prompt');
    again.keys('Enter');
    await again.waitFor('third answer');
    await again.waitFor('› Ask anything');
    again.keys('C-d');
    await again.waitFor('[exit 0]', { inHistory: true });

    // Each prompt and answer is stored exactly once, in order; the model saw the whole history each time.
    const lines = storedLines(env.ASSISTANT_DATA_DIR!, id);
    expect(conversationOf(lines)).toEqual(['first prompt', 'first answer', 'second prompt', 'second answer', 'third prompt', 'third answer']);
    expect(lines.filter((l) => l.e.type === 'session_start')).toHaveLength(1);
    expect(lines.filter((l) => l.e.type === 'resume').map((l) => l.e.owner?.kind)).toEqual(['headless', 'terminal']);
    const last = llm.server.requests.at(-1)!;
    expect(JSON.stringify(last.body)).toContain('second answer');
  });

  it('an approval still waiting in the terminal when the session moves is not lost: the new surface is told it did not run', async () => {
    const { dir, env, term, row } = await terminalAfter('write the file', 'Allow Write');
    const id = row.id;
    const headless = await runCli(['-p', '--resume', id, '--take-over', 'second prompt'], { cwd: dir, env });
    expect(headless.code).toBe(0);
    expect(headless.stdout).toContain('second answer');
    // The headless surface says what was pending, and so does the history the model got.
    expect(headless.stderr).toMatch(/waited for the user's approval.*waiting in terminal on host .*Write/s);
    const request = JSON.stringify(llm.server.requests.at(-1)!.body);
    expect(request).toMatch(/waited for the user's approval, so they did not run/);
    expect(request).toContain('new.txt');

    await term.waitFor('[exit 1]', { inHistory: true });
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
    // Said once: resuming again does not repeat it.
    llm.server.reset();
    const later = await runCli(['-p', '--resume', id, 'third prompt'], { cwd: dir, env });
    expect(later.code).toBe(0);
    expect(later.stderr).not.toMatch(/waited for the user's approval/);
    expect(JSON.stringify(storedLines(env.ASSISTANT_DATA_DIR!, id)).match(/waited for the user's approval/g)).toHaveLength(1);
  });
});
