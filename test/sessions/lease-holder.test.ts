// Which surface holds a session (for hand-offs): the lease records the front end's kind and label,
// and `holder()` tells any store instance who holds it and whether that is itself. Real stores:
// JSONL files, and a real redis-server when installed.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionOwner, SessionStore } from '../../dist/core/index.js';
import { createJsonlStore } from '../../dist/plugins/store-jsonl/store.js';
import { createRedisStore } from '../../dist/plugins/store-redis/store.js';
import { tempDir } from '../support/project.js';
import { redisServerBinary, startRedis, type RedisServer } from './redis-server.js';
import { silentLogger } from './silent-logger.js';

const owner = (kind: string, label: string): SessionOwner => ({ surface: `${kind}@lease-test`, pid: process.pid, host: hostname(), since: Date.now(), kind, label });

function holderContract(name: string, pair: () => Promise<[SessionStore, SessionStore]>) {
  it(`${name}: holder() names the surface holding the lease, follows a take-over, and is empty once released`, async () => {
    const [terminal, server] = await pair();
    try {
      const id = randomUUID();
      expect(await terminal.holder!(id)).toBeUndefined();
      await terminal.acquire(id);
      expect(await terminal.holder!(id)).toMatchObject({ mine: true, owner: { kind: 'terminal', label: 'tty1', pid: process.pid } });
      const seen = await server.holder!(id);
      expect(seen).toMatchObject({ mine: false, owner: { kind: 'terminal', label: 'tty1', host: hostname() } });
      expect(Object.keys(seen!.owner)).not.toContain('token');

      const lease = await server.acquire(id, { takeOver: true });
      expect(lease.owner).toMatchObject({ kind: 'serve', label: 'http://127.0.0.1:4711' });
      expect(await terminal.holder!(id)).toMatchObject({ mine: false, owner: { kind: 'serve', label: 'http://127.0.0.1:4711' } });
      expect(await server.holder!(id)).toMatchObject({ mine: true });

      await lease.release();
      expect(await terminal.holder!(id)).toBeUndefined();
      expect(await terminal.holder!('../not-an-id')).toBeUndefined();
    } finally {
      await terminal.close();
      await server.close();
    }
  });
}

describe('lease holder', () => {
  holderContract('jsonl', async () => {
    const root = tempDir('assistant-lease-');
    return [createJsonlStore(root, silentLogger, owner('terminal', 'tty1')), createJsonlStore(root, silentLogger, owner('serve', 'http://127.0.0.1:4711'))];
  });

  const binary = redisServerBinary();
  describe.skipIf(!binary)('redis', () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await startRedis(binary!);
    });
    afterAll(async () => {
      await server?.kill();
    });
    const options = () => ({
      url: server.url,
      keyPrefix: `lease-${randomUUID().slice(0, 8)}:`,
      ttlSeconds: 600,
      leaseSeconds: 30,
      onDisconnect: 'stop' as const,
      connectTimeoutMs: 2000,
      commandTimeoutMs: 2000,
      spoolDir: tempDir('assistant-spool-'),
    });
    holderContract('redis', async () => {
      const shared = options();
      return [createRedisStore(shared, silentLogger, owner('terminal', 'tty1')), createRedisStore(shared, silentLogger, owner('serve', 'http://127.0.0.1:4711'))];
    });
  });
});
