import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { SessionError, type Logger } from '../../core/index.js';

/** How to reach Redis. */
export interface ConnectionOptions {
  url: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
}

/** The URL without its password, for messages. */
export const safeUrl = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/**
 * One lazily opened ioredis client. Commands never queue while disconnected (the store spools
 * instead), and the client keeps reconnecting in the background.
 */
export function connection(options: ConnectionOptions, logger: Logger, onReady: () => void) {
  let client: Redis | undefined;
  let lastError = 'not connected yet';

  const get = (): Redis => {
    if (client) return client;
    // Loaded on first use (ioredis is CommonJS, so synchronously): runs on the JSONL store never pay for it.
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    client = new RedisClient(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: options.connectTimeoutMs,
      commandTimeout: options.commandTimeoutMs,
      retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2000),
    });
    client.on('error', (error: Error) => {
      lastError = error.message;
      logger.debug(`redis: ${error.message}`);
    });
    client.on('ready', onReady);
    client.connect().catch(() => undefined);
    return client;
  };

  let first: Promise<void> | undefined;
  return {
    /** Waits (once per process, up to the connect timeout) for the first connection; never throws. */
    firstConnect(): Promise<void> {
      return (first ??= this.whenReady().then(
        () => undefined,
        () => undefined,
      ));
    },
    /** The client, whatever its state. */
    get,
    /** True when commands can be sent now. */
    ready: () => get().status === 'ready',
    /** The client once it is ready, waiting up to the connect timeout; a coded error otherwise. */
    async whenReady(): Promise<Redis> {
      const c = get();
      if (c.status === 'ready') return c;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.connectTimeoutMs);
        function done() {
          clearTimeout(timer);
          c.off('ready', done);
          resolve();
        }
        c.once('ready', done);
      });
      if ((c.status as string) !== 'ready') throw unreachable(options.url, lastError);
      return c;
    },
    lastError: () => lastError,
    async close(): Promise<void> {
      if (!client) return;
      const c = client;
      client = undefined;
      if (c.status === 'ready') await Promise.race([c.quit().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
      c.disconnect();
    },
  };
}

/** The coded error for an unreachable Redis. */
export function unreachable(url: string, why: string, extra = ''): SessionError {
  return new SessionError('ASSISTANT_STORE_UNAVAILABLE', `cannot reach Redis at ${safeUrl(url)} (${why})${extra}; start it, or check persistence.redis.url`, {
    plugin: 'store-redis',
  });
}
