import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Message } from '../../dist/core/index.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { makeProject, tempDir } from '../support/project.js';
import { kernelFor, waitFor } from './helpers.js';
import { redisServerBinary, useRedis } from './redis-server.js';

const binary = redisServerBinary();
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }], meta: { origin: 'user' } });

// The kernel claims a new session's lease before its first event. With Redis unreachable and
// onDisconnect: spool, that claim is provisional: the session goes on locally, and the lease is
// claimed for real before any of it is sent.
describe.skipIf(!binary)('Redis store: a session started while Redis is down', () => {
  const redis = useRedis(binary, { connect: false, admin: { retryStrategy: () => 100 } });

  it('starts on the spool, then claims the lease and syncs once Redis is back', async () => {
    const project = makeProject();
    const spoolDir = tempDir('assistant-spool-');
    const persistence = { store: 'redis', redis: { url: redis.server.url, keyPrefix: 'off:', spoolDir, connectTimeoutMs: 300, commandTimeoutMs: 500, leaseSeconds: 5 } };
    await redis.server.kill();
    const kernel = await kernelFor(project, tempDir(), { persistence });
    const session = await openSession(kernel, { projectRoot: project, mode: 'default', model: 'm' });
    await session.record({ type: 'message', message: user('offline') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });
    expect(existsSync(join(spoolDir, `${session.info.id}.jsonl`))).toBe(true);

    await redis.server.start();
    await redis.admin.connect();
    await waitFor(async () => ((await redis.admin.exists(`off:lease:{${session.info.id}}`)) && !existsSync(join(spoolDir, `${session.info.id}.jsonl`)) ? true : undefined));
    await session.record({ type: 'message', message: user('online') });
    await session.record({ type: 'checkpoint', reason: 'turn_end' });

    const other = await kernelFor(project, tempDir(), { persistence });
    await expect(other.store().acquire(session.info.id)).rejects.toMatchObject({ code: 'ASSISTANT_SESSION_IN_USE' });
    const loaded = await other.store().load({ kind: 'id', id: session.info.id, projectRoot: project });
    expect(loaded?.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(['offline', 'online']);
    await kernel.shutdown();
    await other.shutdown();
  });
});
