import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { SERVE_ERRORS } from './errors.js';
import { ServeError } from './http-error.js';

/** The built web UI (esbuild writes it beside the compiled plugin: dist/plugins/surface-serve/web/). */
const WEB_DIR = new URL('./web/', import.meta.url);

/** The only files served: a fixed list, so no path from a request ever reaches the file system. */
const FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** Scripts and styles only from this server, nothing inline, no frames, no form posts elsewhere: model output rendered in the page cannot run. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export async function serveStatic(pathname: string, res: ServerResponse): Promise<void> {
  const entry = FILES[pathname];
  if (!entry) throw new ServeError(404, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, 'not found');
  let body: Buffer;
  try {
    body = await readFile(new URL(entry.file, WEB_DIR));
  } catch {
    throw new ServeError(404, SERVE_ERRORS.ASSISTANT_SERVE_BAD_REQUEST, `the web UI is not built (${entry.file} is missing): run npm run build`);
  }
  res.writeHead(200, { 'content-type': entry.type, 'content-security-policy': CSP, 'cache-control': 'no-cache', 'content-length': body.length });
  res.end(body);
}
