import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, makeProject } from '../support/project.js';
import { scriptedConfig } from './support.js';
import { colouredLine, overflowing, TmuxTerminal, tmuxAvailable } from './tmux.js';
import { toolLine } from '../support/tool-line.js';

const hasTmux = tmuxAvailable();
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

function launch(options: { color?: boolean; width?: number; files?: Record<string, string>; args?: string[] } = {}) {
  const env = isolatedEnv();
  if (options.color !== false) delete env.NO_COLOR;
  const dir = makeProject({
    '.assistantrc': scriptedConfig(),
    'src/greet.ts': "export const greeting = 'helo';\n",
    'src/other.ts': "export const place = 'wrold';\n",
    ...options.files,
  });
  // The scripted project loads its own provider plugin: the user trusts it.
  const term = TmuxTerminal.start({ cwd: dir, env, width: options.width ?? 80, args: ['--trust-project', ...(options.args ?? [])] });
  terminals.push(term);
  return { term, dir, env };
}

const count = (text: string, part: string) => text.split(part).length - 1;

describe.skipIf(!hasTmux)('the terminal UI, driven in tmux', () => {
  it('runs a whole session: Markdown, an edit approval with a diff, interrupt, steering, /cost, /exit', async () => {
    const { term, dir, env } = launch();
    await term.waitFor('default mode (shift+tab)');

    // A prompt and streamed Markdown, committed line by line.
    term.type('Please explain the project');
    term.keys('Enter');
    let screen = await term.waitFor('Done explaining.');
    expect(screen).toContain('› Please explain the project');
    expect(screen).toMatch(/✻ Thought for \d+s · ctrl\+t to show thinking/);
    expect(screen).toContain('\nProject overview\n'); // the heading, markers gone
    expect(screen).toContain('• item one');
    expect(screen).toContain('• item two with code');
    expect(screen).toContain('const answer = 42; // the answer');
    expect(screen).toContain('│ greet.ts │ 1     │');
    expect(screen).toContain('\nlong sentence that has to wrap inside an eighty column terminal without\n');
    const coloured = term.history({ colors: true });
    expect(colouredLine(coloured, 'const answer = 42')).toMatch(/\x1b\[35m(\x1b\[49m)?const/); // syntax colour in the fenced block
    expect(colouredLine(coloured, 'This project prints')).toContain('\x1b[1mgreeting'); // **greeting** in bold

    // An edit approval showing the diff; "yes for this session" lets the next edit through unasked.
    term.type('Please fix the greeting');
    term.keys('Enter');
    screen = await term.waitFor('Allow Edit src/greet.ts?');
    expect(screen).toContain('◆ Edit src/greet.ts  +1 −1');
    expect(screen).toContain("1 - export const greeting = 'helo';");
    expect(screen).toContain("1 + export const greeting = 'hello';");
    expect(screen).toContain('why: file edits need approval in default mode [tool-harness]');
    expect(screen).toContain("2. Yes, and don't ask again this session (Edit(src/**))");
    expect(screen).toMatch(/Waiting for your approval…/);
    expect(colouredLine(term.history({ colors: true }), "+ export const greeting = 'hello';")).toMatch(/\x1b\[32m(\x1b\[49m)?\+ export/);
    term.type('2');
    screen = await term.waitFor('Both edits are done.');
    expect(screen).toContain('✓ allowed Edit src/greet.ts for this session (Edit(src/**))');
    expect(screen).toMatch(toolLine('● Edit src/greet.ts (+1 −1)'));
    expect(screen).toMatch(toolLine('● Edit src/other.ts (+1 −1)'));
    expect(count(term.history(), '◆ Edit')).toBe(1);
    expect(readFileSync(join(dir, 'src/greet.ts'), 'utf8')).toBe("export const greeting = 'hello';\n");
    expect(readFileSync(join(dir, 'src/other.ts'), 'utf8')).toBe("export const place = 'world';\n");

    // An interrupt mid-stream keeps what was streamed and gives the prompt back.
    term.type('Tell me a long story');
    term.keys('Enter');
    await term.waitFor('Once upon a time there was');
    term.keys('Escape');
    screen = await term.waitFor('stopped by the user; the partial reply was kept');
    expect(screen).toContain('Once upon a time there was a parser.');
    await term.waitFor('› Ask anything');

    // Typing while a tool runs queues a steering message that the loop picks up.
    term.type('Run the slow command');
    term.keys('Enter');
    await term.waitFor('Allow Bash sleep 4; echo slow-done?');
    term.type('1');
    await term.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash sleep 4; echo slow-done/);
    term.type('also check the README');
    term.keys('Enter');
    await term.waitFor('⧗ queued: also check the README');
    screen = await term.waitFor('Steering received: also check the README');
    expect(screen).toMatch(toolLine('● Bash sleep 4; echo slow-done → exit 0'));
    expect(screen).toContain('⎿ slow-done');
    expect(screen).toContain('› also check the README  (steering)');
    expect(screen).not.toContain('⧗ queued');

    // /cost: tokens per model.
    term.type('/cost');
    term.keys('Enter');
    screen = await term.waitFor('cache write');
    expect(screen).toMatch(/model\s+input\s+output\s+cache read\s+cache write\s+cost/);
    expect(screen).toMatch(/scripted-1\s+\d+(\.\d)?k\s+\d+\s+\d+(\.\d)?k\s+\d+\s+n\/a/);

    // History: Up brings back the last prompt; it was saved under the data directory.
    term.keys('Up');
    await term.waitFor('› /cost');
    term.keys('C-u');
    const history = readFileSync(join(env.ASSISTANT_DATA_DIR!, 'history.jsonl'), 'utf8');
    expect(history).toContain('"text":"Please fix the greeting"');

    // Nothing was wider than the terminal: no line needed the terminal's own wrapping.
    expect(overflowing(term)).toEqual([]);

    term.type('/exit');
    term.keys('Enter');
    screen = await term.waitFor('[exit 0]');
    expect(screen).toMatch(/resume with: assistant --resume [0-9a-f-]{36}\n\[exit 0\]/);
  }, 300_000);

  it('keeps pasted newlines, has a newline key, completes @files and cycles the mode', async () => {
    const { term } = launch({ color: false });
    await term.waitFor('default mode');
    term.paste('first line\nsecond line');
    await term.waitFor(/› first line\n  second line/);
    term.keys('C-j');
    term.type('third @src/gr');
    await term.waitFor('❯ @src/greet.ts');
    term.keys('Tab');
    await term.waitFor(/  third @src\/greet\.ts\n/);
    term.keys('Enter');
    const screen = await term.waitFor('You said: first line');
    expect(screen).toMatch(/› first line\n  second line\n  third @src\/greet\.ts\n/);
    // The fallback echoes the whole user message: the attached file came with it.
    await term.waitFor('<file path="src/greet.ts">');
    term.keys('BTab');
    await term.waitFor('⏵⏵ accept edits (shift+tab)');
    term.keys('BTab');
    await term.waitFor('⏸ plan mode (read-only)');
    // NO_COLOR: not one colour code on the screen.
    expect(term.history({ colors: true })).not.toMatch(/\x1b\[(3\d|9\d)m/);
  });

  it('exits on Ctrl+C twice at an empty prompt, and on the first press clears typed text', async () => {
    const { term } = launch({ color: false });
    await term.waitFor('default mode');
    term.type('draft');
    term.keys('C-c');
    await term.waitFor('› Ask anything');
    term.keys('C-c');
    await term.waitFor('Press Ctrl+C again to exit');
    term.keys('C-c');
    await term.waitFor('[exit 0]');
  });

  it('starts with a prompt from the command line, and stays tidy in a narrow terminal', async () => {
    const { term } = launch({ width: 50, args: ['Please fix the greeting'] });
    await term.waitFor('Allow Edit src/greet.ts?');
    term.type('1');
    await term.waitFor('Allow Edit src/other.ts?');
    term.type('1');
    await term.waitFor('Both edits are done.');
    term.type('Please explain the project');
    term.keys('Enter');
    await term.waitFor('Done explaining.');
    expect(overflowing(term)).toEqual([]);
  });
});
