// --continue/--resume keep a session whose file holds damaged records: each bad record is skipped
// with a warning naming the file and line, the rest of the history is kept, and it never fails for good.
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitProject, requestText, runHeadless, sharedFakeLlm } from '../e2e/support.js';
import { tempDir, userDirsUnder } from '../support/project.js';

const llm = sharedFakeLlm();

const REPLY = { turns: [{ name: 'any', times: 0, reply: { text: 'noted' } }] };

/** Kinds of damage, each a line (or bytes) a crash, a full disk or another program leaves in the middle of the file. */
const DAMAGE: Array<[string, string | Buffer]> = [
  ['invalid JSON', '{"t":1,"e":{"type":"message","message":{"role":"user"\n'],
  ['a message of the wrong shape', JSON.stringify({ t: 2, e: { type: 'message', message: { role: 'user', content: 'not a list' } } }) + '\n'],
  ['a null message', JSON.stringify({ t: 3, e: { type: 'message', message: null } }) + '\n'],
  ['usage without counts', JSON.stringify({ t: 4, e: { type: 'usage', usage: 'lots', model: 'm' } }) + '\n'],
  ['todos that are not a list', JSON.stringify({ t: 5, e: { type: 'todos', todos: 7 } }) + '\n'],
  ['a compaction without messages', JSON.stringify({ t: 6, e: { type: 'compaction', messages: null, tokensBefore: 1, tokensAfter: 1 } }) + '\n'],
  ['a part of an unknown type', JSON.stringify({ t: 7, e: { type: 'message', message: { role: 'assistant', content: [{ type: 'tool_call' }] } } }) + '\n'],
  ['plain JSON values', '42\nnull\n"text"\n[1,2]\n'],
  ['binary garbage', Buffer.concat([Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x80, 0x0a]), Buffer.from('\u0000\u0001{{{\n')])],
];

function sessionFile(dataDir: string): string {
  const projects = join(dataDir, 'assistant', 'projects');
  const [project] = readdirSync(projects);
  const sessions = join(projects, project!, 'sessions');
  // The events file is `<uuid>.jsonl`; side channels have a second dot.
  return join(sessions, readdirSync(sessions).find((f) => /^[0-9a-f-]+\.jsonl$/.test(f))!);
}

describe('resuming a session with damaged records', () => {
  it('skips each bad record with a warning naming the file and line, keeps the rest, and keeps working on later resumes', async () => {
    const env = userDirsUnder(tempDir('assistant-home-'));
    const dir = gitProject({ 'notes.txt': 'x\n' });
    llm.script(REPLY);
    expect((await runHeadless(llm.server, dir, ['remember the word pelican'], { env })).code).toBe(0);

    const file = sessionFile(env.XDG_DATA_HOME!);
    const good = readFileSync(file, 'utf8').split('\n').length - 1;
    for (const [, bytes] of DAMAGE) appendFileSync(file, bytes);
    // A torn last line: the process stopped while writing it.
    appendFileSync(file, '{"t":9,"e":{"type":"message","message":{"role":"assistant","content":[{"type":"te');

    llm.script(REPLY);
    const resumed = await runHeadless(llm.server, dir, ['--continue', 'what was the word?'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(requestText(llm.server.requests[0]!)).toContain('remember the word pelican');
    const warned = resumed.stderr.split('\n').filter((l) => l.includes(`${file}:`));
    // Every damaged line is named: the first damaged one is the line after the good ones.
    expect(warned.some((l) => l.includes(`${file}:${good + 1}:`))).toBe(true);
    expect(warned.length).toBeGreaterThanOrEqual(DAMAGE.length + 1);
    expect(resumed.stderr).toMatch(/cut off/);

    // Damage in the middle stays there; the next resume still works, with the new turn kept.
    llm.script(REPLY);
    const again = await runHeadless(llm.server, dir, ['--continue', 'and now?'], { env });
    expect(again.code, again.stderr).toBe(0);
    const sent = requestText(llm.server.requests[0]!);
    expect(sent).toContain('remember the word pelican');
    expect(sent).toContain('what was the word?');
  }, 120_000);

  it('keeps a session whose first record is damaged, from its metadata', async () => {
    const env = userDirsUnder(tempDir('assistant-home-'));
    const dir = gitProject({ 'notes.txt': 'x\n' });
    llm.script(REPLY);
    expect((await runHeadless(llm.server, dir, ['remember the word heron'], { env })).code).toBe(0);
    const file = sessionFile(env.XDG_DATA_HOME!);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[0] = '{"t":1,"e":{"type":"session_start","info":null}}';
    writeFileSync(file, lines.join('\n'));
    llm.script(REPLY);
    const resumed = await runHeadless(llm.server, dir, ['--continue', 'what was the word?'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`${file}:1:`);
    expect(requestText(llm.server.requests[0]!)).toContain('remember the word heron');
  }, 120_000);
});
