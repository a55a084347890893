import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../../core/index.js';
import { parseAnswer } from './approvals.js';
import { SERVE_ERRORS } from './errors.js';
import { sendError, sendJson, ServeError } from './http-error.js';
import { loginCookie, readJson, type RequestGuard } from './request-guard.js';
import { SESSION_ID, type ServedSessions } from './served-sessions.js';
import { resumePoint, streamEvents } from './sse.js';
import { serveStatic } from './static-files.js';

const badRequest = (message: string) => new ServeError(400, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, message);
const notFound = () => new ServeError(404, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, 'no such route; see docs/serve.md for the API');
const MAX_PROMPT_CHARS = 100_000;

/** The HTTP server: every request is checked for its Host and Origin, API requests for the token, then routed. */
export function createServeServer(guardOf: () => RequestGuard | undefined, sessions: ServedSessions, logger: Logger): Server {
  return createServer((req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'no-referrer');
    res.setHeader('x-frame-options', 'DENY');
    const guard = guardOf();
    if (!guard) return sendJson(res, 503, { error: { code: 'ASSISTANT_SERVE_UNAUTHORIZED', message: 'the server is starting' } });
    handle(req, res, guard, sessions).catch((error: unknown) => {
      if (!(error instanceof ServeError)) logger.warn(`request ${req.method} ${req.url?.split('?')[0]} failed: ${(error as Error)?.message ?? error}`);
      sendError(res, error);
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, guard: RequestGuard, sessions: ServedSessions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://server');
  const method = req.method ?? 'GET';
  const changes = method !== 'GET' && method !== 'HEAD';
  if (!url.pathname.startsWith('/api/')) {
    guard.checkSource(req, false);
    if (method !== 'GET' && method !== 'HEAD') throw notFound();
    return serveStatic(url.pathname, res);
  }
  if (url.pathname === '/api/login' && method === 'POST') {
    guard.checkSource(req, true);
    const body = await readJson(req);
    res.setHeader('set-cookie', loginCookie(guard.login(body.token)));
    return sendJson(res, 200, { ok: true });
  }
  // A cookie is sent by the browser on its own: changes it authenticates must name our page as their origin.
  const how = guard.authenticate(req);
  guard.checkSource(req, how === 'cookie' && changes);
  const parts = url.pathname.split('/').slice(2); // ['sessions', id, action, ...]
  if (parts[0] !== 'sessions') throw notFound();
  if (parts.length === 1) {
    if (method === 'GET') return sendJson(res, 200, { sessions: await sessions.list() });
    if (method === 'POST') {
      const body = await readJson(req);
      const driver = body.resume === undefined ? await sessions.create() : await sessions.attach(sessionId(body.resume), body.take_over === true);
      return sendJson(res, 201, driver.view());
    }
    throw notFound();
  }
  const id = sessionId(parts[1]);
  const action = parts.slice(2).join('/');
  if (action === '' && method === 'GET') return sendJson(res, 200, await sessions.view(id));
  if (action === 'attach' && method === 'POST') {
    const body = await readJson(req);
    return sendJson(res, 200, (await sessions.attach(id, body.take_over === true)).view());
  }
  if (action === 'detach' && method === 'POST') return sendJson(res, 200, { detached: await sessions.detach(id) });
  const driver = sessions.get(id);
  if (!driver) throw new ServeError(409, SERVE_ERRORS.ASSISTANT_SERVE_NOT_ATTACHED, `session ${id.slice(0, 8)} is not attached on this server; POST /api/sessions/${id}/attach first`);
  if (action === 'events' && method === 'GET') return streamEvents(req, res, driver.events, resumePoint(req, url));
  if (action === 'prompt' && method === 'POST') {
    const text = (await readJson(req)).text;
    if (typeof text !== 'string' || !text.trim()) throw badRequest('"text" must be a non-empty string');
    if (text.length > MAX_PROMPT_CHARS) throw badRequest(`"text" is longer than ${MAX_PROMPT_CHARS} characters`);
    await driver.prompt(text);
    return sendJson(res, 202, { accepted: true });
  }
  if (action === 'interrupt' && method === 'POST') {
    driver.interrupt();
    return sendJson(res, 202, { interrupted: driver.busy });
  }
  if (parts[2] === 'approvals' && parts.length === 4 && method === 'POST') {
    const answer = parseAnswer(await readJson(req));
    if (!answer) throw badRequest('answer with {"behavior": "allow" | "deny", "scope": "once" | "session" | "project"}');
    if (!driver.answer(parts[3]!, answer)) throw new ServeError(404, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, 'no approval with that id is waiting (answered already?)');
    return sendJson(res, 200, { answered: true });
  }
  throw notFound();
}

function sessionId(raw: unknown): string {
  if (typeof raw !== 'string' || !SESSION_ID.test(raw)) throw badRequest('a session is named by its full id (a UUID)');
  return raw;
}
