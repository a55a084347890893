import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../support/project.js';

/** A real redis-server on 127.0.0.1 at a random port, persisting to a temp dir (AOF, fsync always). */
export interface RedisServer {
  port: number;
  url: string;
  /** SIGKILLs the server (a crash; the AOF keeps what was acknowledged). */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** The redis-server binary, or undefined (the tests skip with a reason, except under CI where they must run). */
export function redisServerBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  if (process.env.CI === 'true') throw new Error('redis-server is not installed, and CI=true requires the Redis store tests to run (apt-get install redis-server)');
  console.warn('skipping Redis store tests: redis-server is not installed (apt-get install redis-server)');
  return undefined;
}

/** Starts a server; call `kill` in afterAll. */
export async function startRedis(binary: string): Promise<RedisServer> {
  const port = await freePort();
  const dir = tempDir('assistant-redis-');
  let child: ChildProcess | undefined;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 60_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        if (!out.includes('Ready to accept connections')) reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    kill: () =>
      new Promise<void>((resolve) => {
        if (!child || child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** What `useRedis` gives a describe block: its server and an admin client on it (read them in hooks and tests). */
export interface RedisFixture {
  readonly server: RedisServer;
  readonly admin: Redis;
}

/**
 * Starts a redis-server and an admin client for the enclosing describe block, and stops both after
 * it. `connect: false` leaves the client to connect on its first command (a test that starts with
 * the server down).
 */
export function useRedis(binary: string | undefined, options: { connect?: boolean; admin?: RedisOptions } = {}): RedisFixture {
  let server: RedisServer | undefined;
  let admin: Redis | undefined;
  beforeAll(async () => {
    server = await startRedis(binary!);
    admin = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 1, ...options.admin });
    admin.on('error', () => undefined);
    if (options.connect !== false) await admin.connect();
  });
  afterAll(async () => {
    admin?.disconnect();
    await server?.kill();
  });
  return {
    get server() {
      return server!;
    },
    get admin() {
      return admin!;
    },
  };
}
