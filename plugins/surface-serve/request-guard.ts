import { timingSafeEqual, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SERVE_ERRORS } from './errors.js';
import { ServeError } from './http-error.js';

/** The login cookie's name; its value is a random secret issued by `/api/login`, not the token. */
export const COOKIE = 'assistant_serve';
/** The largest request body accepted. */
export const MAX_BODY_BYTES = 256 * 1024;

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Who may talk to the server: requests naming one of its own host:port pairs (DNS rebinding
 * defence), from its own origin or from no web page at all, carrying the token or a login cookie.
 */
export class RequestGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;
  private readonly cookies = new Set<string>();

  constructor(
    private readonly token: string,
    host: string,
    port: number,
  ) {
    // The bound address (IPv6 in brackets, as Host carries it) and the loopback names; never a wildcard address.
    const bound = host.includes(':') ? `[${host}]` : host;
    const names = [bound, '127.0.0.1', 'localhost', '[::1]'].filter((n) => n !== '0.0.0.0' && n !== '[::]');
    this.hosts = new Set(names.map((n) => `${n}:${port}`));
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
  }

  /** Refuses a request that names another Host or comes from another web page's Origin. */
  checkSource(req: IncomingMessage, needOrigin: boolean): void {
    const host = req.headers.host?.toLowerCase();
    if (!host || !this.hosts.has(host))
      throw new ServeError(403, SERVE_ERRORS.ASSISTANT_SERVE_ORIGIN_REFUSED, `Host "${(host ?? '').slice(0, 100)}" is not this server; use ${[...this.hosts][0]}`);
    const origin = req.headers.origin;
    if (origin === undefined) {
      // A browser names the page that sends a cross-site request; with a cookie, a missing Origin is not trusted for changes.
      if (needOrigin) throw new ServeError(403, SERVE_ERRORS.ASSISTANT_SERVE_ORIGIN_REFUSED, 'a request authenticated by cookie must carry the Origin header');
      return;
    }
    if (!this.origins.has(origin.toLowerCase())) throw new ServeError(403, SERVE_ERRORS.ASSISTANT_SERVE_ORIGIN_REFUSED, `Origin "${origin.slice(0, 100)}" may not use this server`);
  }

  /** How the request proves it may act: the bearer token, or a login cookie; throws 401 otherwise. */
  authenticate(req: IncomingMessage): 'bearer' | 'cookie' {
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ') && sameSecret(auth.slice(7).trim(), this.token)) return 'bearer';
    const cookie = cookieValue(req.headers.cookie, COOKIE);
    if (cookie && [...this.cookies].some((c) => sameSecret(c, cookie))) return 'cookie';
    throw new ServeError(401, SERVE_ERRORS.ASSISTANT_SERVE_UNAUTHORIZED, 'this server needs its token: open the URL it printed, or send Authorization: Bearer <token>');
  }

  /** Checks the token a login posts and issues a cookie secret for it. */
  login(token: unknown): string {
    if (typeof token !== 'string' || !sameSecret(token, this.token))
      throw new ServeError(401, SERVE_ERRORS.ASSISTANT_SERVE_UNAUTHORIZED, 'wrong token: open the URL `assistant serve` printed');
    const secret = randomBytes(32).toString('base64url');
    this.cookies.add(secret);
    return secret;
  }
}

/** The HttpOnly, SameSite=Strict cookie a login sets (no Max-Age: it ends with the browser session). */
export const loginCookie = (secret: string) => `${COOKIE}=${secret}; HttpOnly; SameSite=Strict; Path=/`;

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Reads a JSON object body, refusing other content types (a form post cannot be a JSON request) and oversized bodies. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new ServeError(415, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, 'send the body as application/json');
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new ServeError(400, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, 'the body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ServeError(400, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

const tooLarge = () => new ServeError(413, SERVE_ERRORS.ASSISTANT_SERVE_TOO_LARGE, `the body is larger than ${MAX_BODY_BYTES / 1024} KiB`);
