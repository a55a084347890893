// `/add-dir` in the real terminal UI (the built CLI in tmux, the fake LLM, the real tools): the
// refusals of --add-dir, a symlink resolved to its real folder, @ completion and attachment of the
// added folder's files, its memory file from the next request, edits there as in the project, and
// its control files still asking.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitProject, requestText, sharedFakeLlm } from '../e2e/support.js';
import { isolatedEnv, tempDir, writeFiles } from '../support/project.js';
import { TmuxTerminal, tmuxAvailable } from './tmux.js';

const hasTmux = tmuxAvailable();
if (!hasTmux && !process.env.CI) console.log('skipping the /add-dir tmux test: tmux is not installed');
const fake = sharedFakeLlm();
const terminals: TmuxTerminal[] = [];
afterEach(() => terminals.splice(0).forEach((t) => t.close()));

describe.skipIf(!hasTmux)('/add-dir in the terminal UI', () => {
  it('refuses what --add-dir refuses, adds the real folder, completes and attaches its files, reads its memory and guards its control files', async () => {
    const base = tempDir('assistant-add-dir-ui-');
    writeFiles(base, { 'shared/other-notes.txt': 'OTHER NOTES CONTENT\n', 'shared/AGENTS.md': 'SHARED-RULE: tabs only.\n' });
    const shared = join(base, 'shared');
    mkdirSync(join(shared, 'sub'));
    symlinkSync(shared, join(base, 'via-link'));
    const dir = gitProject({ 'README.md': '# app\n' });
    fake.script({
      turns: [
        {
          name: 'look',
          when: { userText: 'look at' },
          reply: {
            toolCalls: [
              { id: 'w1', name: 'Write', input: { file_path: join(shared, 'new.txt'), content: 'written there\n' } },
              { id: 'w2', name: 'Write', input: { file_path: join(shared, '.assistantrc.json'), content: '{"permissions":{"mode":"bypass"}}\n' } },
            ],
          },
        },
        { name: 'done', when: { toolResultFor: 'w2' }, reply: { text: 'Looked and wrote.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key' });
    const term = TmuxTerminal.start({ cwd: dir, env, width: 160, height: 45, args: ['--permission-mode', 'acceptEdits'] });
    terminals.push(term);
    await term.waitFor('Ask anything');

    // The refusals of --add-dir, each a coded error; nothing is added.
    const refused: Array<[string, string | RegExp]> = [
      ['/add-dir /etc', 'ASSISTANT_CONFIG_INVALID: /add-dir /etc is in /etc, which can never be added'],
      ['/add-dir /', 'ASSISTANT_CONFIG_INVALID: /add-dir / is the file system root'],
      ['/add-dir ~', /ASSISTANT_CONFIG_INVALID: \/add-dir \S+ is your home folder/],
      ['/add-dir ./README.md', 'is not a directory'],
      ['/add-dir ../no-such-folder', 'does not exist or cannot be reached'],
    ];
    for (const [command, expected] of refused) {
      term.type(command);
      term.keys('Enter');
      await term.waitFor(expected);
    }
    term.type('/add-dir');
    term.keys('Enter');
    await term.waitFor('No folders are added.');

    // A symlink is resolved once: the real folder is added.
    term.type(`/add-dir ${join(base, 'via-link')}`);
    term.keys('Enter');
    await term.waitFor(`Added ${shared} for this run`);
    term.type(`/add-dir ${join(shared, 'sub')}`);
    term.keys('Enter');
    await term.waitFor(`is already in the added folder ${shared}; nothing was added.`);
    term.type('/add-dir .');
    term.keys('Enter');
    await term.waitFor('. is already in the project; nothing was added.');

    // @ completes the added folder's files by their full path.
    term.type('look at @other-no');
    await term.waitFor(`❯ @${shared}/other-notes.txt`);
    term.keys('Tab');
    await term.waitFor(`› look at @${shared}/other-notes.txt`);
    term.keys('Enter');

    // The edit in the added folder runs unasked (acceptEdits, as in the project); its config asks.
    const screen = await term.waitFor(`Allow Write ${join(shared, '.assistantrc.json')}?`);
    expect(screen).toMatch(/control file|configuration/i);
    term.type('n');
    term.keys('Enter');
    await term.waitFor('Looked and wrote.');
    expect(readFileSync(join(shared, 'new.txt'), 'utf8')).toBe('written there\n');
    expect(existsSync(join(shared, '.assistantrc.json'))).toBe(false);
    const look = fake.server.requests.find((q) => q.turn === 'look')!;
    expect(requestText(look)).toContain('OTHER NOTES CONTENT');
    expect(JSON.stringify((look.body as { system?: unknown }).system)).toContain('SHARED-RULE: tabs only.');
  }, 240_000);

  it('lets Bash write in a folder added while running, as in the project (the sandbox sees it too)', async () => {
    const base = tempDir('assistant-add-dir-bash-');
    const shared = join(base, 'shared');
    mkdirSync(shared);
    const dir = gitProject({ 'README.md': '# app\n' });
    const bash = (id: string, file: string) => ({ id, name: 'Bash', input: { command: `echo written > ${join(shared, file)}` } });
    fake.script({
      turns: [
        { name: 'before', when: { userText: 'write before' }, reply: { toolCalls: [bash('b1', 'before.txt')] } },
        { name: 'before done', when: { toolResultFor: 'b1' }, reply: { text: 'Tried before.' } },
        { name: 'after', when: { userText: 'write after' }, reply: { toolCalls: [bash('b2', 'after.txt')] } },
        { name: 'after done', when: { toolResultFor: 'b2' }, reply: { text: 'Tried after.' } },
        { name: 'control', when: { userText: 'write its config' }, reply: { toolCalls: [bash('b3', '.assistantrc.json')] } },
        { name: 'control done', when: { toolResultFor: 'b3' }, reply: { text: 'Tried its config.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, ANTHROPIC_API_KEY: 'test-key', TMPDIR: tempDir('assistant-own-tmp-') });
    const term = TmuxTerminal.start({ cwd: dir, env, width: 160, height: 45, args: ['--permission-mode', 'bypass'] });
    terminals.push(term);
    await term.waitFor('Ask anything');
    term.type('write before');
    term.keys('Enter');
    await term.waitFor('Tried before.');
    expect(existsSync(join(shared, 'before.txt'))).toBe(false);
    term.type(`/add-dir ${shared}`);
    term.keys('Enter');
    await term.waitFor(`Added ${shared} for this run`);
    term.type('write after');
    term.keys('Enter');
    await term.waitFor('Tried after.');
    expect(readFileSync(join(shared, 'after.txt'), 'utf8')).toBe('written\n');

    // Its control files stay protected as the project's: even in bypass mode a command that creates its config has it undone.
    term.type('write its config');
    term.keys('Enter');
    const screen = await term.waitFor('Tried its config.');
    expect(screen).toContain(`${join(shared, '.assistantrc.json')}: the command created it (a file); undone`);
    expect(existsSync(join(shared, '.assistantrc.json'))).toBe(false);
  }, 240_000);
});
