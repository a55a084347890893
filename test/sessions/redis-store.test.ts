import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Kernel, type Message } from '../../dist/core/index.js';
import { openSession, type SessionState } from '../../dist/core/kits/agent/index.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { kernelFor, scriptedProject, startCli, waitFor, writeScriptedConfig } from './helpers.js';
import { redisServerBinary, useRedis } from './redis-server.js';

const binary = redisServerBinary();
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], meta: { origin: 'user' } });
const reply = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe.skipIf(!binary)('Redis store (real redis-server on 127.0.0.1)', () => {
  const redis = useRedis(binary, { admin: { retryStrategy: () => 100 } });

  let prefixCount = 0;
  const redisConfig = (extra: Record<string, unknown> = {}) => ({ store: 'redis', redis: { url: redis.server.url, keyPrefix: `t${++prefixCount}:`, spoolDir: tempDir('assistant-spool-'), connectTimeoutMs: 300, commandTimeoutMs: 500, leaseSeconds: 2, ...extra } });
  const kernelWith = (project: string, persistence: Record<string, unknown>) => kernelFor(project, tempDir(), { persistence });
  const open = (kernel: Kernel, extra: Partial<Parameters<typeof openSession>[1]> = {}) => openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default', model: 'm', ...extra });
  const load = (kernel: Kernel, id: string) => kernel.store().load({ kind: 'id', id, projectRoot: kernel.projectRoot });
  async function exchange(session: SessionState, n: number) {
    await session.record({ type: 'message', message: user(`q${n}`) });
    await session.record({ type: 'message', message: reply(`a${n}`) });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
  }

  it('round-trips a session as a stream, lists it per project, resolves prefixes, keeps side channels, deletes', async () => {
    const project = makeProject();
    const persistence = redisConfig();
    const kernel = await kernelWith(project, persistence);
    const session = await open(kernel);
    for (let i = 0; i < 3; i++) await exchange(session, i);
    await session.record({ type: 'todos', todos: [{ id: 't', content: 'ship', status: 'pending' }] });
    await session.record({ type: 'usage', usage: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 1, cacheWriteTokens: 0 }, model: 'm' });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    await kernel.store().appendRecords(session.info.id, 'audit', [{ tool: 'Read', outcome: 'ok' }, { tool: 'Bash', outcome: 'denied' }]);
    await kernel.shutdown();

    const prefix = (persistence.redis as { keyPrefix: string }).keyPrefix;
    expect(await redis.admin.type(`${prefix}s:{${session.info.id}}:events`)).toBe('stream');
    expect(await redis.admin.xlen(`${prefix}s:{${session.info.id}}:events`)).toBeGreaterThanOrEqual(12);
    expect(await redis.admin.exists(`${prefix}lease:{${session.info.id}}`)).toBe(0);

    const reader = await kernelWith(project, persistence);
    const loaded = (await load(reader, session.info.id))!;
    expect(loaded.messages).toEqual(session.messages);
    expect(loaded.todos).toEqual([{ id: 't', content: 'ship', status: 'pending' }]);
    expect(loaded.usage.inputTokens).toBe(7);
    expect(loaded.info.title).toBe('q0');
    expect(await reader.store().load({ kind: 'latest', projectRoot: project })).toMatchObject({ info: { id: session.info.id } });
    expect(await reader.store().list({ projectRoot: project })).toEqual([expect.objectContaining({ id: session.info.id, messageCount: 6, title: 'q0' })]);
    expect(await reader.store().list({ projectRoot: makeProject() })).toEqual([]);
    expect((await reader.store().list({ allProjects: true })).map((s) => s.id)).toEqual([session.info.id]);
    expect(await reader.store().resolve(session.info.id.slice(0, 5), project)).toEqual([session.info.id]);
    expect(await reader.store().readRecords(session.info.id, 'audit')).toEqual([{ tool: 'Read', outcome: 'ok' }, { tool: 'Bash', outcome: 'denied' }]);

    expect(await reader.store().delete(session.info.id)).toBe(true);
    expect(await redis.admin.keys(`${prefix}s:{${session.info.id}}*`)).toEqual([]);
    expect(await reader.store().list({ projectRoot: project })).toEqual([]);
    await reader.shutdown();
  });

  it('expires idle sessions after the TTL, and activity renews it', async () => {
    const project = makeProject();
    // A 4 s TTL: without the renewal, 1 s later the TTL is under 3 s; with it, over 3 s unless the
    // renewal and the check are more than a second apart (a loaded machine is slow, not that slow).
    const persistence = redisConfig({ ttlSeconds: 4 });
    const kernel = await kernelWith(project, persistence);
    const session = await open(kernel);
    await exchange(session, 1);
    const prefix = (persistence.redis as { keyPrefix: string }).keyPrefix;
    const ttl = await redis.admin.pttl(`${prefix}s:{${session.info.id}}:events`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(4000);
    expect(await redis.admin.pttl(`${prefix}s:{${session.info.id}}:meta`)).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1000));
    await exchange(session, 2); // renews
    expect(await redis.admin.pttl(`${prefix}s:{${session.info.id}}:events`)).toBeGreaterThan(3000);
    await kernel.shutdown();
    await new Promise((r) => setTimeout(r, 4200));
    const reader = await kernelWith(project, persistence);
    expect(await reader.store().list({ projectRoot: project })).toEqual([]);
    expect(await reader.store().list({ allProjects: true })).toEqual([]);
    expect(await load(reader, session.info.id)).toBeUndefined();
    // The listing dropped the expired id from the global indexes too.
    expect(await redis.admin.zscore(`${prefix}recent`, session.info.id)).toBeNull();
    await reader.shutdown();
  });

  it('keeps going locally when Redis dies mid-session and syncs everything, in order, when it is back', async () => {
    const project = makeProject();
    const persistence = redisConfig();
    const spoolDir = (persistence.redis as { spoolDir: string }).spoolDir;
    const kernel = await kernelWith(project, persistence);
    const session = await open(kernel);
    await exchange(session, 1);
    await redis.server.kill();
    await exchange(session, 2); // Redis is gone: no throw, the events wait in the spool
    await exchange(session, 3);
    expect(readdirSync(spoolDir)).toEqual([`${session.info.id}.jsonl`]);
    await redis.server.start();
    await waitFor(() => (existsSync(join(spoolDir, `${session.info.id}.jsonl`)) ? undefined : true));
    await exchange(session, 4);
    await kernel.shutdown();

    const reader = await kernelWith(project, persistence);
    const loaded = (await load(reader, session.info.id))!;
    expect(loaded.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3', 'q4', 'a4']);
    expect((await reader.store().list({ projectRoot: project }))[0]).toMatchObject({ messageCount: 8 });
    await reader.shutdown();
  });

  it('with onDisconnect: stop, stops with a clear error, keeps the unsent events and syncs them on the next start', async () => {
    const project = makeProject();
    const persistence = redisConfig({ onDisconnect: 'stop' });
    const kernel = await kernelWith(project, persistence);
    const session = await open(kernel);
    await exchange(session, 1);
    await redis.server.kill();
    await expect(session.record({ type: 'message', message: user('q2') })).rejects.toMatchObject({
      code: 'ASSISTANT_STORE_UNAVAILABLE',
      message: expect.stringMatching(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ .*the session stopped \(persistence\.redis\.onDisconnect: stop\), its unsent events are kept in .*\.jsonl/),
    });
    await expect(kernel.store().list({ projectRoot: project })).rejects.toMatchObject({ code: 'ASSISTANT_STORE_UNAVAILABLE' });
    await kernel.shutdown();
    await redis.server.start();
    const reader = await kernelWith(project, persistence);
    const loaded = (await load(reader, session.info.id))!;
    expect(loaded.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['q1', 'a1', 'q2']);
    await reader.shutdown();
  });

  it('gives one surface the session: a second process is refused with where it is held, --take-over hands it over', async () => {
    const persistence = redisConfig({ leaseSeconds: 5 });
    const dir = scriptedProject({ turns: 2 }, { persistence });
    const env = isolatedEnv();
    expect((await runCli(['--trust-project', '-p', 'team task'], { cwd: dir, env })).code).toBe(0);
    const [row] = JSON.parse((await runCli(['--trust-project', 'sessions', 'list', '--json'], { cwd: dir, env })).stdout);
    writeScriptedConfig(dir, { turns: 400, delayMs: 15 }, { persistence });
    const holder = startCli(['--trust-project', '--resume', row.id.slice(0, 8), '-p', 'long job'], { cwd: dir, env });
    await waitFor(async () => ((await redis.admin.exists(`${persistence.redis.keyPrefix}lease:{${row.id}}`)) ? true : undefined));

    const refused = await runCli(['--trust-project', '--continue', '-p', 'me too'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ASSISTANT_SESSION_IN_USE: session [0-9a-f]{8} is in use on .+@.+ \(pid \d+, since .+\); close it there, or pass --take-over/);
    const listed = JSON.parse((await runCli(['--trust-project', 'sessions', 'list', '--json'], { cwd: dir, env })).stdout);
    expect(listed[0].inUseBy).toMatch(/@/);

    writeScriptedConfig(dir, { turns: 2 }, { persistence });
    const took = await runCli(['--trust-project', '--continue', '--take-over', '-p', 'handed over'], { cwd: dir, env });
    expect(took.code).toBe(0);
    const first = await holder.done;
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/session [0-9a-f]{8} was taken over by .+; this surface stopped writing to it/);
    const shown = JSON.parse((await runCli(['--trust-project', 'sessions', 'show', row.id, '--json'], { cwd: dir, env })).stdout);
    expect(shown.messages.at(-1).content[0].text).toBe('Finished "handed over" after 2 turns.');
  });

  it('says clearly when Redis cannot be reached', async () => {
    const kernel = await kernelWith(makeProject(), { store: 'redis', redis: { url: 'redis://127.0.0.1:1', connectTimeoutMs: 200, spoolDir: tempDir() } });
    await expect(kernel.store().list({ projectRoot: kernel.projectRoot })).rejects.toMatchObject({
      code: 'ASSISTANT_STORE_UNAVAILABLE',
      message: expect.stringMatching(/^cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.*\); start it, or check persistence\.redis\.url$/),
    });
    await kernel.shutdown();
  });
});
