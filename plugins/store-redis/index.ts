import { join } from 'node:path';
import { definePlugin, lazyImport, userDirs, type SessionStore } from '../../core/index.js';
import { deferredStore } from './deferred-store.js';
import type { RedisStoreOptions } from './store.js';

/** The store and its Redis client, imported on the store's first use: a session on another store never loads them. */
const implementation = lazyImport('store-redis', 'Redis store', () => import('./store.js'));

type Options = Partial<RedisStoreOptions>;

/**
 * The team store (`persistence.store: redis`): sessions shared through Redis, one active surface
 * per session, TTL on inactivity. Inert unless selected: no connection is opened otherwise.
 */
export default definePlugin<Options>({
  name: 'store-redis',
  version: '1.0.0',
  configKey: 'persistence.redis',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      url: { type: 'string', pattern: '^rediss?://' },
      keyPrefix: { type: 'string' },
      ttlSeconds: { type: 'integer', minimum: 1 },
      leaseSeconds: { type: 'integer', minimum: 1 },
      onDisconnect: { enum: ['spool', 'stop'] },
      connectTimeoutMs: { type: 'integer', minimum: 50 },
      commandTimeoutMs: { type: 'integer', minimum: 50 },
      spoolDir: { type: 'string', minLength: 1 },
    },
  },
  apply(kernel, options, { logger }) {
    let store: SessionStore | undefined;
    kernel.hooks.sessionStore.for('redis').tap('store-redis', () => {
      const settings: RedisStoreOptions = {
        url: options.url ?? process.env.ASSISTANT_REDIS_URL ?? 'redis://127.0.0.1:6379',
        keyPrefix: options.keyPrefix ?? 'assistant:',
        ttlSeconds: options.ttlSeconds ?? 86_400,
        leaseSeconds: options.leaseSeconds ?? 15,
        onDisconnect: options.onDisconnect ?? 'spool',
        connectTimeoutMs: options.connectTimeoutMs ?? 2000,
        commandTimeoutMs: options.commandTimeoutMs ?? 2000,
        spoolDir: options.spoolDir ?? join(userDirs().data, 'redis-spool'),
      };
      return (store ??= deferredStore('redis', async () => (await implementation()).createRedisStore(settings, logger)));
    });
  },
});
