import { AssistantError, isAssistantError, type ErrorCodeDefinition } from '../../core/index.js';
import type { ServerResponse } from 'node:http';

/** A coded error with the HTTP status it is answered with. */
export class ServeError extends AssistantError {
  constructor(
    readonly status: number,
    code: ErrorCodeDefinition,
    message: string,
  ) {
    super(code, message, { plugin: 'surface-serve' });
    this.name = 'ServeError'; // the bundles rename classes
  }
}

/** HTTP statuses for the session codes a store raises (a held lease is a conflict, a missing session a 404). */
const STATUS_FOR_CODE: Record<string, number> = {
  ASSISTANT_SESSION_IN_USE: 409,
  ASSISTANT_SESSION_TAKEN_OVER: 409,
  ASSISTANT_SESSION_NOT_FOUND: 404,
  ASSISTANT_SESSION_AMBIGUOUS: 400,
};

/** Answers with `{ error: { code, message } }`; an uncoded failure is a 500 that shows no internals. */
export function sendError(res: ServerResponse, error: unknown): void {
  const status = error instanceof ServeError ? error.status : isAssistantError(error) ? (STATUS_FOR_CODE[error.code] ?? 500) : 500;
  const body = isAssistantError(error)
    ? { code: error.code, message: error.message }
    : { code: 'ASSISTANT_INTERNAL', message: 'the server failed to answer this request; see its log' };
  sendJson(res, status, { error: body });
}

/** Answers with a JSON body; API answers are never cached. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
