// Checkpoints and rewind end to end: the built CLI, headless, against the fake LLM. Four runs of
// one session (resumed with --continue) edit, multi-edit and create files, one prompt through a
// sub-agent; `assistant sessions rewind` then restores files byte for byte and the conversation,
// a later resume sees the rewound conversation and can rewind further.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, tempDir, userDirsUnder } from '../support/project.js';
import { gitProject, requestText, runHeadless, sharedFakeLlm } from '../e2e/support.js';

const fake = sharedFakeLlm();

const A0 = 'alpha v1\r\nünïcode – line\n';
const B0 = 'one\ntwo\nthree\n';

const EDITOR = '---\ndescription: Edits files.\ntools: Read, Edit, Write\n---\nYou edit files as asked.\n';

const FIXTURE = {
  turns: [
    // Prompt 1: Edit an existing file, Write a new one.
    { name: 'p1 read', when: { userText: 'PROMPT-ONE' }, reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'a.txt' } }] } },
    {
      name: 'p1 edit',
      when: { toolResultFor: 'r1' },
      reply: {
        toolCalls: [
          { id: 'e1', name: 'Edit', input: { file_path: 'a.txt', old_string: 'alpha v1', new_string: 'alpha v2' } },
          { id: 'w1', name: 'Write', input: { file_path: 'new1.txt', content: 'created by one\n' } },
        ],
      },
    },
    { name: 'p1 done', when: { toolResultFor: 'w1' }, reply: { text: 'one done' } },
    // Prompt 2: MultiEdit, Write of a new file in a new folder, Edit again.
    {
      name: 'p2 read',
      when: { userText: 'PROMPT-TWO' },
      reply: { toolCalls: [{ id: 'r2a', name: 'Read', input: { file_path: 'a.txt' } }, { id: 'r2b', name: 'Read', input: { file_path: 'b.txt' } }] },
    },
    {
      name: 'p2 edit',
      when: { toolResultFor: 'r2b' },
      reply: {
        toolCalls: [
          { id: 'm2', name: 'MultiEdit', input: { file_path: 'b.txt', edits: [{ old_string: 'one', new_string: 'ONE' }, { old_string: 'three', new_string: 'THREE' }] } },
          { id: 'w2', name: 'Write', input: { file_path: 'sub/new2.txt', content: 'created by two\n' } },
          { id: 'e2', name: 'Edit', input: { file_path: 'a.txt', old_string: 'alpha v2', new_string: 'alpha v3' } },
        ],
      },
    },
    { name: 'p2 done', when: { toolResultFor: 'e2' }, reply: { text: 'two done' } },
    // Prompt 3: a sub-agent edits and creates files.
    {
      name: 'p3 delegate',
      when: { userText: 'PROMPT-THREE' },
      reply: { toolCalls: [{ id: 't3', name: 'Task', input: { description: 'edit b', subagent_type: 'editor', prompt: 'SUBAGENT-JOB' } }] },
    },
    { name: 'sub read', when: { userText: 'SUBAGENT-JOB' }, reply: { toolCalls: [{ id: 'sr', name: 'Read', input: { file_path: 'b.txt' } }] } },
    {
      name: 'sub edit',
      when: { toolResultFor: 'sr' },
      reply: {
        toolCalls: [
          { id: 'se', name: 'Edit', input: { file_path: 'b.txt', old_string: 'two', new_string: 'TWO' } },
          { id: 'sw', name: 'Write', input: { file_path: 'new3.txt', content: 'created by a sub-agent\n' } },
        ],
      },
    },
    { name: 'sub done', when: { toolResultFor: 'sw' }, reply: { text: 'sub done' } },
    { name: 'p3 done', when: { toolResultFor: 't3' }, reply: { text: 'three done' } },
    // Prompt 4, after the rewind to prompt 2.
    { name: 'p4 read', when: { userText: 'PROMPT-FOUR' }, reply: { toolCalls: [{ id: 'r4', name: 'Read', input: { file_path: 'a.txt' } }] } },
    { name: 'p4 edit', when: { toolResultFor: 'r4' }, reply: { toolCalls: [{ id: 'e4', name: 'Edit', input: { file_path: 'a.txt', old_string: 'alpha v2', new_string: 'alpha v4' } }] } },
    { name: 'p4 done', when: { toolResultFor: 'e4' }, reply: { text: 'four done' } },
  ],
  fallback: { text: 'UNEXPECTED REQUEST' },
};

describe('assistant sessions rewind', () => {
  it('restores files byte for byte and the conversation; a resumed session sees it and rewinds further', async () => {
    fake.script(FIXTURE);
    const dir = gitProject({ 'a.txt': A0, 'b.txt': B0, '.assistant/agents/editor.md': EDITOR });
    const dirs = userDirsUnder(tempDir('assistant-home-'));
    const env = isolatedEnv(dirs);
    const ask = (prompt: string, resume: boolean) =>
      runHeadless(fake.server, dir, [prompt, '--permission-mode', 'acceptEdits', ...(resume ? ['--continue'] : [])], { env: dirs });
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env, timeoutMs: 100_000 });
    const file = (name: string) => readFileSync(join(dir, name), 'utf8');

    for (const [prompt, answer, resume] of [
      ['PROMPT-ONE', 'one done', false],
      ['PROMPT-TWO', 'two done', true],
      ['PROMPT-THREE', 'three done', true],
    ] as const) {
      const r = await ask(prompt, resume);
      expect(r.stdout + r.stderr).toContain(answer);
      expect(r.code).toBe(0);
    }
    expect(file('a.txt')).toBe('alpha v3\r\nünïcode – line\n');
    expect(file('b.txt')).toBe('ONE\nTWO\nTHREE\n');
    expect(existsSync(join(dir, 'new3.txt'))).toBe(true);

    const listed = JSON.parse((await cli('sessions', 'list', '--json')).stdout) as Array<{ id: string }>;
    expect(listed).toHaveLength(1);
    const id = listed[0]!.id;

    const list = await cli('sessions', 'rewind', id.slice(0, 8));
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/1 .*PROMPT-ONE .*2 files: a\.txt, new1\.txt/);
    expect(list.stdout).toMatch(/2 .*PROMPT-TWO .*3 files: a\.txt, b\.txt, sub\/new2\.txt/);
    expect(list.stdout).toMatch(/3 .*PROMPT-THREE .*2 files: b\.txt, new3\.txt/);

    // Bad numbers and ids are refused with their codes, and nothing changes.
    const bad = await cli('sessions', 'rewind', id, '7');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('ASSISTANT_REWIND_NO_PROMPT: there is no prompt 7: this session\'s checkpoints are prompts 1 to 3');
    const notNumber = await cli('sessions', 'rewind', id, 'two');
    expect(notNumber.stderr).toContain('ASSISTANT_REWIND_NO_PROMPT');
    const unknown = await cli('sessions', 'rewind', 'ffffffff', '1');
    expect(unknown.stderr).toContain('ASSISTANT_SESSION_NOT_FOUND');
    expect(file('a.txt')).toBe('alpha v3\r\nünïcode – line\n');

    const back = await cli('sessions', 'rewind', id, '2');
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    expect(back.stdout).toContain('Rewound code and conversation to before prompt 2 ("PROMPT-TWO")');
    expect(file('a.txt')).toBe('alpha v2\r\nünïcode – line\n');
    expect(file('b.txt')).toBe(B0);
    expect(file('new1.txt')).toBe('created by one\n');
    expect(existsSync(join(dir, 'sub/new2.txt'))).toBe(false);
    expect(existsSync(join(dir, 'new3.txt'))).toBe(false);

    const shown = JSON.parse((await cli('sessions', 'show', id, '--json')).stdout) as { messages: Array<{ role: string; content: Array<{ text?: string }> }> };
    const texts = JSON.stringify(shown.messages);
    expect(texts).toContain('PROMPT-ONE');
    expect(texts).toContain('one done');
    expect(texts).not.toContain('PROMPT-TWO');
    expect(texts).not.toContain('three done');

    // A resumed session continues from the rewound conversation.
    const four = await ask('PROMPT-FOUR', true);
    expect(four.code).toBe(0);
    const sent = requestText(fake.server.requests.find((q) => q.turn === 'p4 done')!);
    expect(sent).toContain('PROMPT-ONE');
    expect(sent).not.toContain('PROMPT-TWO');
    expect(file('a.txt')).toBe('alpha v4\r\nünïcode – line\n');

    const again = await cli('sessions', 'rewind', id);
    expect(again.stdout).toMatch(/1 .*PROMPT-ONE/);
    expect(again.stdout).toMatch(/2 .*PROMPT-FOUR .*1 file: a\.txt/);
    expect(again.stdout).not.toContain('PROMPT-TWO');

    // A file changed outside the agent is overwritten only when confirmed.
    writeFileSync(join(dir, 'new1.txt'), 'my own edit\n');
    const conflict = await cli('sessions', 'rewind', id, '1', '--both');
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('ASSISTANT_REWIND_CONFLICT: these files changed after the agent last wrote them, and the rewind would overwrite them: new1.txt');
    expect(file('a.txt')).toBe('alpha v4\r\nünïcode – line\n');
    expect(file('new1.txt')).toBe('my own edit\n');

    const forced = await cli('sessions', 'rewind', id, '1', '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'))).toEqual(Buffer.from(A0));
    expect(existsSync(join(dir, 'new1.txt'))).toBe(false);
    const emptied = JSON.parse((await cli('sessions', 'show', id, '--json')).stdout) as { messages: unknown[] };
    expect(emptied.messages).toEqual([]);
  }, 300_000);
});
