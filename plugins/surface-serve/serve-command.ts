import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AssistantError, userDirs, type Kernel, type Logger } from '../../core/index.js';
import { ensurePrivateDir, writeFileAtomic, PRIVATE_FILE_MODE } from '../../core/kits/fs/index.js';
import { setSurface } from '../../core/kits/agent/index.js';
import { SERVE_ERRORS } from './errors.js';
import { RequestGuard } from './request-guard.js';
import { ServedSessions } from './served-sessions.js';
import { createServeServer } from './server.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `assistant serve` as parsed by the CLI. */
export interface ServeFlags {
  port?: string;
  host?: string;
  allowRemote?: boolean;
}

function parsePort(raw: string | undefined): number {
  const port = Number(raw ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new AssistantError('ASSISTANT_USAGE', `--port must be a port number from 0 to 65535 (got "${raw}")`);
  return port;
}

/**
 * Runs the server until SIGINT or SIGTERM: binds (loopback unless `--allow-remote`), writes the
 * token 0600 to the data dir, prints the URL with the token in its fragment once, and serves.
 */
export async function runServe(kernel: Kernel, flags: ServeFlags, logger: Logger): Promise<number> {
  const port = parsePort(flags.port);
  const host = flags.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !flags.allowRemote)
    throw new AssistantError(SERVE_ERRORS.ASSISTANT_SERVE_BIND_REFUSED, `--host ${host} would let other machines reach this server; add --allow-remote if that is what you want (anyone who can reach it and has the token controls the agent)`);
  // Fail before binding when no model is reachable or the store is misnamed.
  kernel.provider();
  const token = randomBytes(32).toString('base64url');
  const sessions = new ServedSessions(kernel, { maxSessions: 8, leaseCheckMs: Number(process.env.ASSISTANT_SERVE_LEASE_CHECK_MS) || 1500 });
  let guard: RequestGuard | undefined;
  const server = createServeServer(() => guard, sessions, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host === 'localhost' ? '127.0.0.1' : host, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  guard = new RequestGuard(token, host === 'localhost' ? '127.0.0.1' : host, bound);
  const dir = join(userDirs().data, 'serve');
  const tokenFile = join(dir, `${bound}.token`);
  await ensurePrivateDir(dir);
  await writeFileAtomic(tokenFile, token + '\n', { mode: PRIVATE_FILE_MODE });
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  // Leases name this server: a terminal refused a session it holds is told "serve (http://...) on host ...".
  setSurface('serve', origin);
  if (!LOOPBACK.has(host)) process.stderr.write(`warning: serving on ${host}: anyone who can reach ${origin} and has the token controls the agent in ${kernel.projectRoot}\n`);
  process.stdout.write(`assistant serve: listening on ${origin} for ${kernel.projectRoot}\nopen ${origin}/#token=${token}\n(the token is also in ${tokenFile}, readable by you only)\n`);

  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  server.close();
  server.closeAllConnections();
  await sessions.closeAll();
  await rm(tokenFile, { force: true });
  // The server's own look at the store (lists, read-only views); each driven session closed its own.
  if (kernel.config.persistence?.store !== 'none') await kernel.store().close().catch(() => undefined);
  return 0;
}
