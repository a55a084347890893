import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectDataDir, type Kernel, type Message } from '../../dist/core/index.js';
import { openSession, type SessionState } from '../../dist/core/kits/agent/index.js';
import { kernelFor } from './helpers.js';
import { makeProject, tempDir } from '../support/project.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], meta: { time: 1, origin: 'user' } });
const assistant = (text: string, calls: Array<{ id: string; name: string }> = []): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }, ...calls.map((c) => ({ type: 'tool_call' as const, id: c.id, name: c.name, input: { path: 'a.ts' } }))],
});
const toolResult = (id: string, text: string): Message => ({ role: 'tool', content: [{ type: 'tool_result', toolCallId: id, content: [{ type: 'text', text }] }] });

async function setup(project = makeProject(), data = tempDir('assistant-data-')) {
  const kernel = await kernelFor(project, data);
  return { kernel, project, data, dir: join(projectDataDir(project, { ASSISTANT_DATA_DIR: data }), 'sessions') };
}

const open = (kernel: Kernel, extra: Partial<Parameters<typeof openSession>[1]> = {}) =>
  openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default', provider: 'scripted', model: 'm1', ...extra });

async function turn(session: SessionState, n: number): Promise<void> {
  await session.record({ type: 'message', message: assistant(`reply ${n}`, [{ id: `c${n}`, name: 'Read' }]) });
  await session.record({ type: 'message', message: toolResult(`c${n}`, `result ${n}`) });
  await session.record({ type: 'checkpoint', reason: 'tool_result' });
  await session.record({ type: 'checkpoint', reason: 'turn_end' });
}

const load = (kernel: Kernel, id: string, projectRoot = kernel.projectRoot) => kernel.store().load({ kind: 'id', id, projectRoot });

describe('JSONL store', () => {
  it('round-trips every kind of event, with user-only permissions and atomic metadata', async () => {
    const { kernel, dir, data } = await setup();
    const session = await open(kernel);
    await session.record({ type: 'message', message: user('fix the failing test\nin src/') });
    await turn(session, 1);
    await session.record({ type: 'usage', usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2 }, model: 'm1' });
    await session.record({ type: 'todos', todos: [{ id: '1', content: 'write test', status: 'in_progress' }] });
    await session.record({ type: 'grant', grant: { rule: 'Bash(npm test)', time: 5 } });
    await session.record({ type: 'compaction', messages: [user('summary of earlier work')], tokensBefore: 900, tokensAfter: 100 });
    await session.record({ type: 'message', message: assistant('after compaction') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    await kernel.shutdown();

    const reader = (await setup(kernel.projectRoot, data)).kernel;
    const loaded = (await load(reader, session.info.id))!;
    expect(loaded.warnings).toEqual([]);
    expect(loaded.info).toMatchObject({ id: session.info.id, projectRoot: kernel.projectRoot, title: 'fix the failing test in src/', model: 'm1', provider: 'scripted', mode: 'default' });
    expect(loaded.messages).toEqual(session.messages);
    expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(loaded.todos).toEqual([{ id: '1', content: 'write test', status: 'in_progress' }]);
    expect(loaded.grants).toEqual([{ rule: 'Bash(npm test)', time: 5 }]);
    expect(loaded.usage).toEqual({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2 });
    expect(loaded.compactions).toHaveLength(1);
    expect(loaded.compactions[0]).toMatchObject({ messagesBefore: 3, tokensBefore: 900, tokensAfter: 100 });

    const file = join(dir, `${session.info.id}.jsonl`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, `${session.info.id}.meta.json`)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const meta = JSON.parse(readFileSync(join(dir, `${session.info.id}.meta.json`), 'utf8'));
    expect(meta).toMatchObject({ id: session.info.id, messageCount: 2, title: 'fix the failing test in src/' });
    // The lock is released on shutdown.
    expect(existsSync(join(data, 'locks', `${session.info.id}.lock`))).toBe(false);
  });

  it('loads a 10,000-message session completely', async () => {
    const { kernel, data } = await setup();
    const session = await open(kernel);
    for (let i = 0; i < 5000; i++) {
      await session.record({ type: 'message', message: user(`question ${i} `.repeat(8)) });
      await session.record({ type: 'message', message: assistant(`answer ${i} `.repeat(8)) });
    }
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    await kernel.shutdown();
    const loaded = (await load((await setup(kernel.projectRoot, data)).kernel, session.info.id))!;
    expect(loaded.messages).toHaveLength(10_000);
    expect(loaded.messages[9999]).toEqual(assistant('answer 4999 '.repeat(8)));
    expect(loaded.warnings).toEqual([]);
  });

  it('detects, reports and skips a torn last line, losing nothing before it, and repairs the file on resume', async () => {
    const { kernel, dir, data } = await setup();
    const session = await open(kernel);
    await session.record({ type: 'message', message: user('first') });
    await turn(session, 1);
    await kernel.shutdown();
    const file = join(dir, `${session.info.id}.jsonl`);
    appendFileSync(file, '{"t":1,"e":{"type":"message","message":{"role":"assis');

    const second = (await setup(kernel.projectRoot, data)).kernel;
    const loaded = (await load(second, session.info.id))!;
    expect(loaded.messages).toEqual(session.messages);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/\.jsonl:\d+: the last record was cut off \(\d+ bytes; .*skipped, everything before it is intact/);

    const resumed = await open(second, { resume: loaded });
    await resumed.record({ type: 'message', message: user('second') });
    await resumed.record({ type: 'checkpoint', reason: 'turn_end' });
    await second.shutdown();
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
    const again = (await load((await setup(kernel.projectRoot, data)).kernel, session.info.id))!;
    expect(again.warnings).toEqual([]);
    expect(again.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('names the file and line of a damaged record, and refuses files that are not sessions', async () => {
    const { kernel, dir, data } = await setup();
    const session = await open(kernel);
    await session.record({ type: 'message', message: user('one') });
    await session.record({ type: 'message', message: assistant('two') });
    await kernel.shutdown();
    const file = join(dir, `${session.info.id}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(2, 0, '{"t":1,"e":{"type":"mess\u0000age", garbage');
    writeFileSync(file, lines.join('\n'));
    const reader = (await setup(kernel.projectRoot, data)).kernel;
    const loaded = (await load(reader, session.info.id))!;
    expect(loaded.warnings).toEqual([expect.stringMatching(new RegExp(`${session.info.id}\\.jsonl:3: not a valid record .* skipped`))]);
    expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant']);

    writeFileSync(file, '{"t":1,"e":{"type":"message","message":{"role":"user","content":[]}}}\n');
    // A damaged start record: the metadata file still knows the session, so the rest is kept.
    const restarted = (await load(reader, session.info.id))!;
    expect(restarted.info.id).toBe(session.info.id);
    expect(restarted.warnings).toEqual([expect.stringContaining('the start of the session is damaged')]);
    const meta = join(dir, `${session.info.id}.meta.json`);
    const metaText = readFileSync(meta, 'utf8');
    rmSync(meta);
    await expect(load(reader, session.info.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_CORRUPT', message: expect.stringContaining('not a session file') });
    writeFileSync(meta, metaText);
    writeFileSync(file, '{"t":1,"e":{"type":"sess');
    await expect(load(reader, session.info.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_CORRUPT', message: expect.stringContaining('holds no complete record') });
    // Listing skips what cannot be read instead of failing.
    expect(await reader.store().list({ projectRoot: kernel.projectRoot })).toEqual([
      expect.objectContaining({ id: session.info.id }), // its metadata file still describes it
    ]);
  });

  it('refuses a second writer of the same session, lets it take over, and the first cannot write again', async () => {
    const { kernel, data } = await setup();
    const first = await open(kernel);
    await first.record({ type: 'message', message: user('mine') });
    await first.record({ type: 'checkpoint', reason: 'turn_end' });

    const other = (await setup(kernel.projectRoot, data)).kernel;
    const snapshot = (await load(other, first.info.id))!;
    await expect(other.store().acquire(first.info.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE', message: expect.stringMatching(/is in use on .*@.* \(pid \d+, since .*\); .*--take-over/) });
    // Writing without the lease is refused too.
    await expect(open(other, { resume: snapshot })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
    expect((await other.store().list({ projectRoot: kernel.projectRoot }))[0]!.inUseBy).toMatch(/@/);

    await other.store().acquire(first.info.id, { takeOver: true });
    const taken = await open(other, { resume: (await load(other, first.info.id))! });
    await taken.record({ type: 'message', message: user('theirs') });
    await taken.record({ type: 'checkpoint', reason: 'turn_end' });
    await expect(first.record({ type: 'message', message: user('late') })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_TAKEN_OVER' });
    await expect(first.record({ type: 'checkpoint', reason: 'turn_end' })).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_TAKEN_OVER' });
    // Nothing the first writer tried after the take-over reached the file.
    const after = (await load(other, first.info.id))!;
    expect(after.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['mine', 'theirs']);
    await other.shutdown();
    await kernel.shutdown().catch(() => undefined);
  });

  it('recovers a lock left by a dead process', async () => {
    const { kernel, data } = await setup();
    const session = await open(kernel);
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    await kernel.shutdown();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const lock = { token: 'dead', pid: Number(dead.stdout), host: (await import('node:os')).hostname(), surface: 'ghost@host:/dev/pts/9', since: 1 };
    writeFileSync(join(data, 'locks', `${session.info.id}.lock`), JSON.stringify(lock));
    const next = (await setup(kernel.projectRoot, data)).kernel;
    const lease = await next.store().acquire(session.info.id);
    expect(lease.owner.pid).toBe(process.pid);
    expect(JSON.parse(readFileSync(join(data, 'locks', `${session.info.id}.lock`), 'utf8')).pid).toBe(process.pid);
    await lease.release();
    expect(existsSync(join(data, 'locks', `${session.info.id}.lock`))).toBe(false);
    await next.shutdown();
  });

  it('keeps side-channel records, and closes their file when the session is released', async () => {
    const { kernel, dir } = await setup();
    const session = await open(kernel);
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    const store = kernel.store();
    await store.appendRecords(session.info.id, 'audit', [{ n: 1 }, { n: 2 }]);
    expect(await store.readRecords(session.info.id, 'audit')).toEqual([{ n: 1 }, { n: 2 }]);
    const lease = await store.acquire(session.info.id);
    await lease.release();
    // Closed on release: an append after the file was removed writes a new file, not the old inode.
    const file = join(dir, `${session.info.id}.audit.jsonl`);
    rmSync(file);
    await store.appendRecords(session.info.id, 'audit', [{ n: 3 }]);
    expect(readFileSync(file, 'utf8')).toBe('{"n":3}\n');
    await kernel.shutdown();
  });

  it('resumes a session from a moved project: found by id, moved into the new project, with a note to re-read files', async () => {
    const data = tempDir('assistant-data-');
    const { kernel } = await setup(makeProject(), data);
    const session = await open(kernel);
    await session.record({ type: 'message', message: user('work in the old place') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    await kernel.shutdown();

    const moved = await setup(makeProject(), data);
    expect(await moved.kernel.store().resolve(session.info.id.slice(0, 6), moved.project)).toEqual([session.info.id]);
    const snapshot = (await load(moved.kernel, session.info.id))!;
    await moved.kernel.store().acquire(session.info.id);
    const resumed = await open(moved.kernel, { resume: snapshot });
    expect(resumed.info.projectRoot).toBe(moved.project);
    const note = resumed.messages.at(-1)!;
    expect(note).toMatchObject({ role: 'user', meta: { origin: 'system-note' } });
    expect(JSON.stringify(note.content)).toContain(`resumed in ${moved.project} (it started in ${kernel.projectRoot})`);
    await resumed.record({ type: 'checkpoint', reason: 'turn_end' });
    await moved.kernel.shutdown();
    // The session's side channels (here the checkpoint index of its prompt; a first prompt stores no blob) move with it.
    expect(readdirSync(moved.dir).sort()).toEqual([`${session.info.id}.checkpoints.jsonl`, `${session.info.id}.jsonl`, `${session.info.id}.meta.json`]);
    expect((await moved.kernel.store().list({ projectRoot: moved.project })).map((s) => s.id)).toEqual([session.info.id]);
    expect(await kernel.store().list({ projectRoot: kernel.projectRoot })).toEqual([]);
  });

  it('answers dangling tool calls of a crashed turn on resume, and forks into a standalone copy', async () => {
    const { kernel, data } = await setup();
    const session = await open(kernel);
    await session.record({ type: 'message', message: user('go') });
    await session.record({ type: 'message', message: assistant('calling', [{ id: 'c1', name: 'Bash' }, { id: 'c2', name: 'Read' }]) });
    await kernel.shutdown();

    const next = (await setup(kernel.projectRoot, data)).kernel;
    const resumed = await open(next, { resume: (await load(next, session.info.id))! });
    const repaired = resumed.messages.at(-1)!;
    expect(repaired.role).toBe('tool');
    expect(repaired.content.map((p) => (p as { toolCallId: string }).toolCallId)).toEqual(['c1', 'c2']);
    expect(repaired.content.every((p) => (p as { isError?: boolean }).isError)).toBe(true);

    const fork = await open(next, { fork: (await load(next, session.info.id))! });
    expect(fork.info.id).not.toBe(session.info.id);
    expect(fork.info.forkedFrom).toBe(session.info.id);
    await fork.record({ type: 'message', message: user('only in the fork') });
    await fork.record({ type: 'checkpoint', reason: 'turn_end' });
    await next.shutdown();
    const reader = (await setup(kernel.projectRoot, data)).kernel;
    const forked = (await load(reader, fork.info.id))!;
    expect(forked.messages).toHaveLength(4);
    expect(forked.info.title).toBe('go');
    expect((await load(reader, session.info.id))!.messages).toHaveLength(3);
  });

  it('lists newest first, resolves prefixes, deletes and prunes', async () => {
    const { kernel, dir } = await setup();
    const ids: string[] = [];
    for (const text of ['alpha', 'beta', 'gamma']) {
      const s = await open(kernel);
      await s.record({ type: 'message', message: user(text) });
      await s.record({ type: 'checkpoint', reason: 'turn_end' });
      ids.push(s.info.id);
      await new Promise((r) => setTimeout(r, 5));
    }
    await kernel.shutdown();
    const store = (await setup(kernel.projectRoot, dir.split('/projects/')[0]!)).kernel.store();
    const listed = await store.list({ projectRoot: kernel.projectRoot });
    expect(listed.map((s) => s.title)).toEqual(['gamma', 'beta', 'alpha']);
    expect(listed[0]).toMatchObject({ messageCount: 1, model: 'm1' });
    expect(await store.list({ projectRoot: kernel.projectRoot, limit: 1 })).toHaveLength(1);
    expect(await store.resolve(ids[0]!.slice(0, 8), kernel.projectRoot)).toEqual([ids[0]]);
    expect((await store.resolve('', kernel.projectRoot)).length).toBe(0);
    expect(await store.resolve('zz', kernel.projectRoot)).toEqual([]);

    expect(await store.delete(ids[1]!)).toBe(true);
    expect(await store.delete(ids[1]!)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.startsWith(ids[1]!))).toEqual([]);

    const metaFile = join(dir, `${ids[0]}.meta.json`);
    const longAgo = Date.now() - 40 * 86_400_000;
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), lastActiveAt: longAgo }));
    utimesSync(join(dir, `${ids[0]}.jsonl`), longAgo / 1000, longAgo / 1000);
    const pruned = await store.prune({ projectRoot: kernel.projectRoot, before: Date.now() - 30 * 86_400_000 });
    expect(pruned.map((s) => s.id)).toEqual([ids[0]]);
    expect((await store.list({ projectRoot: kernel.projectRoot })).map((s) => s.title)).toEqual(['gamma']);
    await store.close();
  });
});
