// Issue #19's smaller terminal items, seen on the real screen: the built CLI in tmux with the fake
// LLM server and the built-in tools. Tool lines (command before description, a write said once, a
// timed-out command), durations in the detail view, /help's columns, `@missing.txt`, Tab on a folder,
// and the pluralised max-turns notice (headless).
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runHeadless } from '../e2e/support.js';
import { toolLine } from '../support/tool-line.js';
import { fakeLlmTerminals } from './fake-llm-terminal.js';
import { overflowing, tmuxAvailable } from './tmux.js';

const hasTmux = tmuxAvailable();
const llm = fakeLlmTerminals();

const TOOLS = {
  turns: [
    {
      name: 'tools',
      when: { userText: 'use the tools' },
      reply: {
        text: 'Using tools.',
        toolCalls: [
          { id: 'b1', name: 'Bash', input: { command: 'ls src', description: 'Show the weather forecast' } },
          { id: 'w1', name: 'Write', input: { file_path: 'src/new.js', content: 'console.log(1);\n' } },
        ],
      },
    },
    { name: 'slow', when: { toolResultFor: 'w1' }, reply: { toolCalls: [{ id: 'b2', name: 'Bash', input: { command: 'sleep 5', timeout: 1000 } }] } },
    { name: 'done', when: { toolResultFor: 'b2' }, reply: { text: 'Tools done.' } },
    { name: 'mention', when: { userText: 'read @missing.txt' }, reply: { text: 'Nothing attached.' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

describe.skipIf(!hasTmux)('smaller terminal fixes with the real provider and tools', () => {
  it('tool lines, durations, /help columns, @missing.txt and Tab on a folder read right', async () => {
    const { dir, env } = llm.project(TOOLS, { 'src/lib/main.ts': 'export {};\n', 'src/a.ts': 'export const a = 1;\n' });
    symlinkSync(join(dir, 'src/lib'), join(dir, 'shared'));
    const term = llm.start({ cwd: dir, env, width: 100, height: 50, args: ['--permission-mode', 'acceptEdits'] });
    await term.waitFor('accept edits (shift+tab)');

    term.type('use the tools');
    term.keys('Enter');
    let screen = await term.waitFor('Tools done.');
    // The command first: a description cannot hide what ran.
    expect(screen).toMatch(toolLine('● Bash ls src · Show the weather forecast → exit 0'));
    expect(screen).toMatch(toolLine('● Write src/new.js (created, 1 line)'));
    expect(screen).toMatch(/^● Bash sleep 5 \(✗ Command timed out after 1 s and was stopped.* · \d\.\ds\)$/m);
    expect(screen).not.toContain('(no output)');
    expect(readFileSync(join(dir, 'src/new.js'), 'utf8')).toBe('console.log(1);\n');

    // The detail view gives the duration the way people read it.
    term.keys('C-o');
    screen = await term.waitFor(/output \(error\), \d+\.\d s:/);
    expect(screen).not.toMatch(/\d+\.\d{3,} ms/);

    // /help: names and descriptions never run together, however long a command's usage is.
    await term.waitFor('› Ask anything');
    term.type('/help');
    term.keys('Enter');
    screen = await term.waitFor('#note');
    const commands = screen.slice(screen.indexOf('Commands'), screen.indexOf('Keys')).split('\n').filter((l) => l.startsWith('  /'));
    expect(commands.length).toBeGreaterThan(8);
    const column = commands.map((l) => /^ {2}\/\S+(?: \S+)* {2,}(?=\S)/.exec(l)?.[0].length).filter((n) => n !== undefined);
    expect(new Set(column).size).toBe(1); // one description column
    expect(screen).toMatch(/^ {2}\/memory \[open user\|project\|<n>\] {2,}List the memory files/m);

    // @missing.txt: a notice, like the other refusals; the prompt still goes.
    term.type('read @missing.txt');
    term.keys('Enter');
    screen = await term.waitFor('Nothing attached.');
    expect(screen).toContain('⚠ @missing.txt was not attached: there is no such file or folder');

    // Tab on a folder, a linked one too: no space after it, so the path can go on.
    await term.waitFor('› Ask anything');
    term.type('see @src/li');
    await term.waitFor('@src/lib/main.ts');
    term.keys('Tab');
    term.type('main.ts and @shar');
    await term.waitFor('❯ @shared/');
    term.keys('Tab');
    term.type('main.ts');
    await term.waitFor('› see @src/lib/main.ts and @shared/main.ts');
    expect(overflowing(term)).toEqual([]);
    expect(llm.unexpected()).toEqual([]);
  }, 300_000);

  it('says "1 model turn" when the turn limit stops a headless run', async () => {
    const { dir } = llm.project({ turns: [{ reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'a.txt' } }] } }], fallback: { text: 'UNEXPECTED' } }, { 'a.txt': 'hello\n' });
    const result = await runHeadless(llm.fake, dir, ['--max-turns', '1', 'read a.txt'], { env: { ANTHROPIC_API_KEY: 'test-key' } });
    expect(result.stderr).toContain('stopped after 1 model turn (limits.maxTurns = 1)');
  }, 120_000);
});
