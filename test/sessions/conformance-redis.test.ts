import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { describeSessionStore } from '@assistant-cli/assistant/testing';
import { createRedisStore } from '../../dist/plugins/store-redis/store.js';
import { tempDir } from '../support/project.js';
import { redisServerBinary, startRedis, type RedisServer } from './redis-server.js';
import { silentLogger } from './silent-logger.js';

// The built-in Redis store against the SessionStore contract, on a real redis-server; each test
// gets its own key prefix (and spool directory), so tests share the server but no data.
const binary = redisServerBinary();
let server: RedisServer | undefined;
let admin: Redis | undefined;
const spools = new Map<string, string>();

beforeAll(async () => {
  if (!binary) return;
  server = await startRedis(binary);
  admin = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  admin?.disconnect();
  await server?.kill();
});

if (binary)
  describeSessionStore(
    'redis',
    ({ scope, owner }) => {
      if (!spools.has(scope)) spools.set(scope, tempDir('assistant-spool-'));
      return createRedisStore(
        {
          url: server!.url,
          keyPrefix: `${scope}:`,
          ttlSeconds: 3600,
          leaseSeconds: 30,
          onDisconnect: 'spool',
          connectTimeoutMs: 5000,
          commandTimeoutMs: 5000,
          spoolDir: spools.get(scope)!,
        },
        silentLogger,
        owner,
      );
    },
    {
      // An XADD is atomic, so a crash cannot tear an entry; an entry whose event is cut off (written
      // by a broken client) is the nearest thing, and must be skipped the same way.
      async tearLastRecord({ scope, sessionId }) {
        const key = `${scope}:s:{${sessionId}}:events`;
        const [[lastId]] = await admin!.xrevrange(key, '+', '-', 'COUNT', 1);
        const seq = Number(lastId.split('-')[1]) + 1;
        await admin!.xadd(key, `0-${seq}`, 'e', '{"type":"message","message":{"role":"user","cont', 't', String(Date.now()), 'w', 'torn');
      },
    },
  );
