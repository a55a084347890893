// --add-dir end to end (issue #19): the real file tools and the real Bash (sandboxed when bubblewrap
// is there) work in an added folder as in the project, and a symlink out of it stays refused.
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../support/project.js';
import { gitProject, requestText, runHeadless, sharedFakeLlm } from './support.js';

const fake = sharedFakeLlm();

describe('assistant -p --add-dir', () => {
  it('reads and writes in the added folder with the real tools, and refuses a symlink out of it', async () => {
    const base = tempDir('assistant-added-e2e-');
    const added = join(base, 'shared');
    writeFiles(base, { 'shared/notes.txt': 'the shared notes\n', 'elsewhere/keep.txt': 'keep\n' });
    symlinkSync(join(base, 'elsewhere'), join(added, 'link-out'));
    const calls = [
      { id: 'read', name: 'Read', input: { file_path: join(added, 'notes.txt') } },
      { id: 'write', name: 'Write', input: { file_path: join(added, 'new.txt'), content: 'written by the agent\n' } },
      { id: 'planted', name: 'Write', input: { file_path: join(added, 'link-out', 'planted.txt'), content: 'no\n' } },
      { id: 'touch', name: 'Bash', input: { command: `touch ${join(added, 'from-bash.txt')}` } },
      { id: 'touch-out', name: 'Bash', input: { command: `touch ${join(added, 'link-out', 'bash-planted.txt')}` } },
    ];
    fake.script({
      turns: [
        { name: 'work', when: { userText: 'use the shared notes' }, reply: { toolCalls: calls } },
        { name: 'done', when: { toolResultFor: 'touch-out' }, reply: { text: 'Done.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const dir = gitProject({ 'README.md': '# app\n' });
    // The sandbox makes the temp directory writable: give the run one of its own, so only --add-dir can make `added` writable.
    const env = { TMPDIR: tempDir('assistant-own-tmp-') };
    const r = await runHeadless(fake.server, dir, ['use the shared notes', '--permission-mode', 'acceptEdits', '--add-dir', added], { env });
    expect(r.stdout).toBe('Done.\n');
    expect(r.code).toBe(0);
    const results = requestText(fake.server.requests.at(-1)!);
    expect(results).toContain('the shared notes');
    expect(readFileSync(join(added, 'new.txt'), 'utf8')).toBe('written by the agent\n');
    expect(existsSync(join(added, 'from-bash.txt'))).toBe(true);
    expect(existsSync(join(base, 'elsewhere', 'planted.txt'))).toBe(false);
    expect(existsSync(join(base, 'elsewhere', 'bash-planted.txt'))).toBe(false);
    expect(r.stderr).toContain(`denied: Write: writes outside the project (${join(base, 'elsewhere', 'planted.txt')})`);
    expect(r.stderr).toContain(`denied: Bash: writes outside the project (${join(base, 'elsewhere', 'bash-planted.txt')})`);
  });
});
