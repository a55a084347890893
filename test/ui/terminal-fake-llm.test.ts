// The terminal UI end to end with every real part: the built CLI in tmux, the Anthropic SDK talking
// to the fake LLM server, the built-in tools and the built-in permission engine (the other tmux
// test uses a scripted provider and a tool harness so its screens are fully deterministic).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestText } from '../e2e/support.js';
import { fakeLlmTerminals } from './fake-llm-terminal.js';
import { colouredLine, overflowing, tmuxAvailable } from './tmux.js';
import { toolLine } from '../support/tool-line.js';

const hasTmux = tmuxAvailable();
const llm = fakeLlmTerminals();

const MARKDOWN = '# Project overview\n\nThis project prints a **greeting**.\n\n- item one\n- item two with `code`\n\n```ts\nconst answer = 42; // the answer\n```\n\nDone explaining.';

const SESSION = {
  turns: [
    { name: 'explain', when: { userText: 'explain the project' }, reply: { text: MARKDOWN } },
    {
      name: 'read both',
      when: { userText: 'fix the typos' },
      reply: {
        text: 'Reading both files.',
        toolCalls: [
          { id: 'r1', name: 'Read', input: { file_path: 'src/greet.ts' } },
          { id: 'r2', name: 'Read', input: { file_path: 'src/other.ts' } },
        ],
      },
    },
    { name: 'edit greet', when: { toolResultFor: 'r2' }, reply: { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: 'src/greet.ts', old_string: 'helo', new_string: 'hello' } }] } },
    { name: 'edit other', when: { toolResultFor: 'e1' }, reply: { toolCalls: [{ id: 'e2', name: 'Edit', input: { file_path: 'src/other.ts', old_string: 'wrold', new_string: 'world' } }] } },
    { name: 'edited', when: { toolResultFor: 'e2' }, reply: { text: 'Both typos are fixed.' } },
    {
      name: 'story',
      when: { userText: 'tell a long story' },
      reply: { text: `Once upon a time there was a parser. ${'It parsed and parsed. '.repeat(40)}The end.`, chunkSize: 4, eventDelayMs: 40 },
    },
    { name: 'slow', when: { userText: 'run the slow command' }, reply: { text: 'Running it.', toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'sleep 4; echo slow-done' } }] } },
    { name: 'steered', when: { contains: 'also check the README' }, reply: { text: 'Steering received: I will check the README too.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};


describe.skipIf(!hasTmux)('the terminal UI with the real provider, tools and permission engine', () => {
  it('streams Markdown, approves an edit for the session with a diff, interrupts, steers, /cost, /exit', async () => {
    const files = { 'src/greet.ts': "export const greeting = 'helo';\n", 'src/other.ts': "export const place = 'wrold';\n", 'README.md': '# demo\n' };
    const { dir, env } = llm.project(SESSION, files, { color: true });
    const fake = llm.fake;
    const term = llm.start({ cwd: dir, env, width: 80 });
    await term.waitFor('default mode (shift+tab)');
    expect(term.screen()).toMatch(/claude-sonnet-4-6 · default mode/);

    // A prompt and streamed Markdown: heading markers gone, bold and code coloured.
    term.type('explain the project');
    term.keys('Enter');
    let screen = await term.waitFor('Done explaining.');
    expect(screen).toContain('› explain the project');
    expect(screen).toContain('\nProject overview\n');
    expect(screen).toContain('• item one');
    expect(screen).toContain('const answer = 42; // the answer');
    const coloured = term.history({ colors: true });
    expect(colouredLine(coloured, 'This project prints')).toContain('\x1b[1mgreeting');
    expect(colouredLine(coloured, 'const answer = 42')).toMatch(/\x1b\[35m(\x1b\[49m)?const/);
    await term.waitFor('› Ask anything'); // idle again: what is typed next is a prompt, not a steering message

    // The real Edit asks in default mode: the diff, the policy's reason, and the answers.
    term.type('fix the typos');
    term.keys('Enter');
    screen = await term.waitFor('Allow Edit src/greet.ts?');
    expect(screen).toMatch(toolLine('● Read src/greet.ts (1 line)'));
    expect(screen).toMatch(toolLine('● Read src/other.ts (1 line)'));
    expect(screen).toContain('◆ Edit src/greet.ts  +1 −1');
    expect(screen).toContain("1 - export const greeting = 'helo';");
    expect(screen).toContain("1 + export const greeting = 'hello';");
    expect(screen).toContain('why: Edit changes src/greet.ts [default]');
    expect(screen).toContain("2. Yes, and don't ask again this session (Edit(src/**))");
    term.type('2');
    // The grant covers the second edit: no second question.
    screen = await term.waitFor('Both typos are fixed.');
    expect(screen).toContain('✓ allowed Edit src/greet.ts for this session (Edit(src/**))');
    expect(screen).toMatch(toolLine('● Edit src/greet.ts (+1 −1)'));
    expect(screen).toMatch(toolLine('● Edit src/other.ts (+1 −1)'));
    expect(term.history().split('◆ Edit').length - 1).toBe(1);
    expect(readFileSync(join(dir, 'src/greet.ts'), 'utf8')).toBe("export const greeting = 'hello';\n");
    expect(readFileSync(join(dir, 'src/other.ts'), 'utf8')).toBe("export const place = 'world';\n");
    await term.waitFor('› Ask anything');

    // Esc mid-stream: the streamed part stays, the request is cancelled, the prompt comes back.
    term.type('tell a long story');
    term.keys('Enter');
    await term.waitFor('Once upon a time there was a parser.');
    term.keys('Escape');
    screen = await term.waitFor('stopped by the user; the partial reply was kept');
    await term.waitFor('› Ask anything');
    expect(term.history()).not.toContain('The end.');
    const story = fake.requests.find((r) => r.turn === 'story')!;
    expect(story.clientClosedEarly).toBe(true);

    // Typing while the real Bash tool runs queues a steering message for the next request.
    term.type('run the slow command');
    term.keys('Enter');
    await term.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash sleep 4; echo slow-done/);
    term.type('also check the README');
    term.keys('Enter');
    await term.waitFor('⧗ queued: also check the README');
    screen = await term.waitFor('Steering received: I will check the README too.');
    expect(screen).toMatch(toolLine('● Bash sleep 4; echo slow-done → exit 0'));
    expect(screen).toContain('⎿ slow-done');
    expect(screen).toContain('› also check the README  (steering)');
    const steered = fake.requests.find((r) => r.turn === 'steered')!;
    expect(requestText(steered)).toMatch(/slow-done[\s\S]*also check the README/);
    await term.waitFor('› Ask anything');

    // /cost with the published prices of the model.
    term.type('/cost');
    term.keys('Enter');
    screen = await term.waitFor(/Cost: \$\d+\.\d+ for \d+ requests/);
    expect(screen).toMatch(/anthropic\/claude-sonnet-4-6\s+\d+(\.\d)?k?\s+\d+(\.\d)?k?\s+\d+(\.\d)?k?\s+\d+(\.\d)?k?\s+\$\d+\.\d+/);

    // Nothing was wider than the terminal.
    expect(overflowing(term)).toEqual([]);
    expect(llm.unexpected()).toEqual([]);

    term.type('/exit');
    term.keys('Enter');
    screen = await term.waitFor('[exit 0]');
    expect(screen).toMatch(/resume with: assistant --resume [0-9a-f-]{36}\n\[exit 0\]/);
  }, 300_000);
});
