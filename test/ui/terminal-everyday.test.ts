// Issue #19's everyday items in the real terminal: the built CLI in tmux, the Anthropic SDK against
// the fake LLM server, the built-in tools and permission engine. The status line (context, cost and a
// status line command), `!command` through the Bash tool, `#note` to a memory file, a resumed session
// showing its conversation, and the exit hint.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestText } from '../e2e/support.js';
import { fakeLlmTerminals } from './fake-llm-terminal.js';
import { colouredLine, overflowing, tmuxAvailable } from './tmux.js';
import { pollUntil, sleep } from '../support/wait.js';

const hasTmux = tmuxAvailable();
const llm = fakeLlmTerminals();

// Prints what the status line command was told, so the test can see each field arrive.
const STATUS_SCRIPT = `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const j = JSON.parse(s);
  require('fs').appendFileSync(process.env.STATUS_LOG, s + '\\n');
  const ctx = j.context_window ? j.context_window.used_percent + '%' : 'none';
  console.log('SL ' + j.model.id + ' ' + j.session_id.slice(0, 8) + ' ' + j.permission_mode + ' ctx=' + ctx + ' cost=' + j.cost.total_cost_usd);
});`;

const SESSION = {
  turns: [
    { name: 'hello', when: { userText: 'say hello' }, reply: { text: 'Hello there: **`npm test`** runs the tests.' } },
    { name: 'after shell', when: { userText: 'what did it print' }, reply: { text: 'It printed the answer.' } },
    { name: 'one more', when: { userText: 'one more thing' }, reply: { text: 'Here is one more thing.' } },
    { name: 'slow', when: { userText: 'a slow reply' }, reply: { text: `Slowly ${'and steadily '.repeat(30)}done slowly.`, chunkSize: 4, eventDelayMs: 40 } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

const start = (dir: string, env: NodeJS.ProcessEnv, args: string[] = []) => llm.start({ cwd: dir, env, width: 100, height: 40, args });

describe.skipIf(!hasTmux)('everyday terminal items with the real provider, tools and permission engine', () => {
  it('status line, !command, #note, exit hint, and --continue showing the conversation', async () => {
    const { dir, env } = llm.project(SESSION, { 'src/a.ts': 'export const a = 1;\n', 'build/keep.txt': 'keep\n' }, { color: true });
    const fake = llm.fake;
    const statusLog = join(dir, '..', `status-${Date.now()}.log`);
    const script = join(env.ASSISTANT_CONFIG_DIR!, 'status.js');
    mkdirSync(env.ASSISTANT_CONFIG_DIR!, { recursive: true });
    writeFileSync(script, STATUS_SCRIPT);
    // The user's own config: trusted, unlike a project's.
    writeFileSync(join(env.ASSISTANT_CONFIG_DIR!, 'config.json'), JSON.stringify({ ui: { statusLine: { command: `STATUS_LOG='${statusLog}' node '${script}'` } } }));
    const term = start(dir, env);

    // Before any request: no context share or cost, but the command already ran with the session's facts.
    await term.waitFor(/SL claude-sonnet-4-6 [0-9a-f]{8} default ctx=none cost=null/);
    expect(term.screen()).toMatch(/claude-sonnet-4-6 · default mode \(shift\+tab\)/);

    // A reply: the status line shows the context used and the session cost, and so does the command.
    term.type('say hello');
    term.keys('Enter');
    await term.waitFor('runs the tests.');
    let screen = await term.waitFor(/claude-sonnet-4-6 · ctx \d+% · \$0\.\d{4} · default mode/);
    await term.waitFor(/SL claude-sonnet-4-6 [0-9a-f]{8} default ctx=\d+(\.\d)?% cost=0\.\d+/);
    // **`npm test`**: bold code, no literal asterisks.
    expect(screen).toContain('Hello there: npm test runs the tests.');
    expect(colouredLine(term.history({ colors: true }), 'Hello there')).toMatch(/\x1b\[1m\x1b\[36mnpm test/);
    const told = readFileSync(statusLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(told.at(-1)).toMatchObject({ hook_event_name: 'Status', cwd: dir, workspace: { project_dir: dir }, model: { id: 'claude-sonnet-4-6' }, permission_mode: 'default' });
    expect(told.at(-1).context_window.window_tokens).toBeGreaterThan(100_000);

    // Nothing changed: the command is not run again, however often the screen redraws.
    const runs = () => readFileSync(statusLog, 'utf8').trim().split('\n').length;
    let settled = runs();
    await pollUntil(async () => {
      await sleep(1000);
      const now = runs();
      return now === settled || ((settled = now), false);
    });
    term.keys('C-l');
    await term.waitFor('› Ask anything');
    await sleep(1500);
    expect(runs()).toBe(settled);

    // !command: the real Bash tool runs it; the output is shown and goes to the model with the next prompt.
    await term.waitFor('› Ask anything');
    term.type('!echo shell-out-$((40+2)); echo second line');
    term.keys('Enter');
    screen = await term.waitFor('(the command and its output are in the conversation for your next prompt)');
    expect(screen).toContain('› !echo shell-out-$((40+2)); echo second line');
    expect(screen).toMatch(/● Bash echo shell-out-\$\(\(40\+2\)\); echo second line · run by the user with ! → exit 0/);
    expect(screen).toContain('⎿ shell-out-42');
    expect(screen).toContain('second line');
    term.type('what did it print');
    term.keys('Enter');
    await term.waitFor('It printed the answer.');
    const asked = requestText(fake.requests.find((r) => r.turn === 'after shell')!);
    expect(asked).toContain('<shell-command>echo shell-out-$((40+2)); echo second line</shell-command>');
    expect(asked).toMatch(/<shell-output>\\nshell-out-42\\nsecond line/);

    // The same permission engine: a destructive command asks, and refusing it leaves the conversation alone.
    await term.waitFor('› Ask anything');
    term.type('!rm -rf build');
    term.keys('Enter');
    await term.waitFor('Allow Bash rm -rf build?');
    term.keys('Escape');
    await term.waitFor(/denied Bash rm -rf build/);
    await term.waitFor('› Ask anything');
    expect(existsSync(join(dir, 'build/keep.txt'))).toBe(true);

    // #note: asks where, appends to the local memory file (kept out of git), which the next request carries.
    term.type('#always run npm test before committing');
    term.keys('Enter');
    screen = await term.waitFor('Save this note to which memory file?');
    expect(screen).toContain('1. Project memory (AGENTS.md, shared with the repository)');
    expect(screen).toContain('2. Local project memory (ASSISTANT.local.md, only you, kept out of git)');
    expect(screen).toMatch(/3\. User memory \(.*ASSISTANT\.md, all your projects\)/);
    term.type('2');
    await term.waitFor(`✓ noted in ${join(dir, 'ASSISTANT.local.md')}`);
    expect(readFileSync(join(dir, 'ASSISTANT.local.md'), 'utf8')).toBe('# Memory\n\n- always run npm test before committing\n');
    expect(readFileSync(join(dir, '.git/info/exclude'), 'utf8')).toContain('/ASSISTANT.local.md');
    term.type('one more thing');
    term.keys('Enter');
    await term.waitFor('Here is one more thing.');
    expect(requestText(fake.requests.find((r) => r.turn === 'one more')!)).toContain('always run npm test before committing');
    expect(llm.unexpected()).toEqual([]);
    expect(overflowing(term)).toEqual([]);

    // While the agent works, "!…" is not sent as a steering message: it waits in the input.
    term.type('a slow reply');
    term.keys('Enter');
    await term.waitFor('Slowly and');
    term.type('!ls');
    term.keys('Enter');
    await term.waitFor('! works when the agent is idle: wait, or press esc to interrupt it');
    await term.waitFor('done slowly.');
    expect(term.screen()).toContain('› !ls');
    expect(requestText(fake.requests.find((r) => r.turn === 'slow')!)).not.toContain('!ls');
    term.keys('C-u');

    // Leaving prints how to come back.
    term.type('/exit');
    term.keys('Enter');
    screen = await term.waitFor('[exit 0]');
    const id = /resume with: assistant --resume ([0-9a-f-]{36})\n\[exit 0\]/.exec(screen)?.[1];
    expect(id).toBeDefined();

    // --continue: the last exchanges are shown, older ones folded.
    const again = start(dir, env, ['--continue']);
    screen = await again.waitFor('─ resumed: the conversation continues from here ─');
    expect(screen).toMatch(/… 3 earlier messages/);
    expect(screen).not.toContain('› say hello');
    expect(screen).not.toContain('› !echo shell-out');
    expect(screen).toContain('› what did it print');
    expect(screen).toContain('It printed the answer.');
    expect(screen).toContain('› one more thing');
    expect(screen).toContain('Here is one more thing.');
    expect(screen).toContain('› a slow reply');
    expect(screen).toContain('done slowly.');
    // The resumed session's cost counts from its stored usage, before any new request.
    await again.waitFor(/claude-sonnet-4-6 · ctx \d+% · \$0\.\d{4} · default mode/);
    again.keys('C-d');
    await again.waitFor(`resume with: assistant --resume ${id}`);

    // The --resume picker leads to the same view.
    const picked = start(dir, env, ['--resume']);
    await picked.waitFor('Resume which session?');
    picked.keys('Enter');
    screen = await picked.waitFor('─ resumed: the conversation continues from here ─');
    expect(screen).toContain('› a slow reply');
    picked.keys('C-d');
    await picked.waitFor(`resume with: assistant --resume ${id}`);
  }, 300_000);
});
