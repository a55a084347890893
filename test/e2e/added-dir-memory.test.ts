// Memory files in added folders (issue #19): the AGENTS.md of a folder the user added (--add-dir, or
// the user's own config) reaches the system prompt like the project's, with imports kept inside that
// folder; an untrusted project's config that names a folder does not get its memory read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../support/project.js';
import { gitProject, runHeadless, sharedFakeLlm } from './support.js';

const fake = sharedFakeLlm();
const systemOf = (request: { body: unknown }) => JSON.stringify((request.body as { system?: unknown }).system ?? '');

function sharedFolder() {
  const base = tempDir('assistant-added-memory-');
  writeFiles(base, {
    'shared/AGENTS.md': 'SHARED-RULE: use tabs in the shared code.\n@extra.md\n@../outside.md\n',
    'shared/extra.md': 'SHARED-IMPORT: imported from inside.\n',
    'outside.md': 'OUTSIDE-SECRET: must not be imported.\n',
  });
  return join(base, 'shared');
}

describe('memory files of added folders', () => {
  it('reads the AGENTS.md of a folder added with --add-dir, imports only from inside it', async () => {
    const added = sharedFolder();
    fake.script({ turns: [], fallback: { text: 'ok' } });
    const dir = gitProject({ 'AGENTS.md': 'PROJECT-RULE: the project rule.\n' });
    const r = await runHeadless(fake.server, dir, ['hello', '--add-dir', added]);
    expect(r.code).toBe(0);
    const system = systemOf(fake.server.requests.at(-1)!);
    expect(system).toContain('PROJECT-RULE');
    expect(system).toContain('SHARED-RULE: use tabs in the shared code.');
    expect(system).toContain('SHARED-IMPORT');
    expect(system).not.toContain('OUTSIDE-SECRET');
    expect(system).toContain(String.raw`scope=\"added\"`);
  });

  it('attaches the memory file of a subfolder of an added folder to the first result that reaches it', async () => {
    const added = sharedFolder();
    writeFiles(added, { 'sub/AGENTS.md': 'SUB-RULE: the sub folder rule.\n', 'sub/data.txt': 'the data\n' });
    fake.script({
      turns: [
        { name: 'read', when: { userText: 'read the data' }, reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: join(added, 'sub', 'data.txt') } }] } },
        { name: 'done', when: { toolResultFor: 'r1' }, reply: { text: 'Read it.' } },
      ],
      fallback: { text: 'UNEXPECTED REQUEST' },
    });
    const r = await runHeadless(fake.server, gitProject({}), ['read the data', '--add-dir', added]);
    expect(r.stdout).toBe('Read it.\n');
    const first = fake.server.requests.find((q) => q.turn === 'read')!;
    expect(JSON.stringify(first.body)).not.toContain('SUB-RULE');
    const done = fake.server.requests.find((q) => q.turn === 'done')!;
    const messages = JSON.stringify((done.body as { messages: unknown }).messages);
    expect(messages).toContain('the data');
    expect(messages).toContain('SUB-RULE: the sub folder rule.');
  });

  it("reads it for a folder in the user's config, and not for one an untrusted project's config names", async () => {
    const added = sharedFolder();
    fake.script({ turns: [], fallback: { text: 'ok' } });
    const home = tempDir('assistant-home-');
    const userConfig = { ASSISTANT_CONFIG_DIR: join(home, 'config') };
    writeFiles(home, { 'config/config.json': JSON.stringify({ permissions: { additionalDirectories: [added] } }) });
    const dir = gitProject({ 'README.md': '# app\n' });
    let r = await runHeadless(fake.server, dir, ['hello'], { env: userConfig });
    expect(r.code).toBe(0);
    expect(systemOf(fake.server.requests.at(-1)!)).toContain('SHARED-RULE');

    const other = sharedFolder();
    const project = gitProject({ '.assistantrc.json': JSON.stringify({ permissions: { additionalDirectories: [other] } }) });
    r = await runHeadless(fake.server, project, ['hello']);
    expect(systemOf(fake.server.requests.at(-1)!)).not.toContain('SHARED-RULE');
  });
});
