import { ProviderError } from '../../kernel/errors.js';
import { httpFailure, networkFailure, protocolFailure, timeoutFailure, type ProviderTarget } from './failure.js';
import { parseRetryAfter } from './retry.js';

/** Thrown by wire translators when a stream or body breaks the protocol; classified as `ASSISTANT_PROVIDER_PROTOCOL`. */
export class WireProtocolError extends Error {}

/** An error shaped like the ones the official HTTP SDKs throw (`status`, `headers`, parsed `error` body). */
interface SdkErrorShape {
  name?: string;
  message?: string;
  status?: number;
  headers?: { get(name: string): string | null };
  error?: unknown;
}

/** Error types that providers send in an error event after the response began, as the HTTP status they stand for. */
const STREAM_ERROR_STATUS: Record<string, number> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
};

/** The `{ type, message }` inside an error body (`{ error: { ... } }` or the bare object). */
function errorDetail(body: unknown): { type?: string; message?: string } {
  if (!body || typeof body !== 'object') return {};
  const inner = (body as { error?: unknown }).error;
  const detail = (inner && typeof inner === 'object' ? inner : body) as { type?: unknown; code?: unknown; message?: unknown };
  const code = typeof detail.code === 'string' ? detail.code : undefined;
  const type = typeof detail.type === 'string' ? detail.type : undefined;
  return {
    // A specific code (`insufficient_quota`, `model_not_found`) says more than a broad type.
    type: code ?? type,
    message: typeof detail.message === 'string' ? detail.message : undefined,
  };
}

/**
 * Classifies what an SDK call threw: HTTP errors by status (with `retry-after`), error events that
 * arrived mid-stream by their type, timeouts, connection failures (`TypeError: terminated` included)
 * and unparseable events. Errors already coded pass through.
 */
export function classifySdkError(error: unknown, target: ProviderTarget, timeoutMs: number): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof WireProtocolError) return protocolFailure(error.message, target, error);
  const e = (error ?? {}) as SdkErrorShape;
  // One SDK names its error classes, the other leaves `name` as "Error": check both.
  const kind = (name: string) => e.name === name || (error as object | undefined)?.constructor?.name === name;
  if (kind('APIConnectionTimeoutError')) return timeoutFailure(timeoutMs, target, error);
  if (kind('APIConnectionError')) {
    // The SDK wraps whatever its fetch threw; a coded error of the kit's fetch (a body it cannot send) stays what it is.
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof ProviderError ? cause : networkFailure(cause ?? error, target);
  }
  if (typeof e.status === 'number') {
    const detail = errorDetail(e.error);
    return httpFailure({ status: e.status, message: detail.message ?? e.message ?? '', type: detail.type, retryAfterMs: parseRetryAfter(e.headers) }, target, error);
  }
  if (kind('APIError') || e.error !== undefined) {
    const detail = errorDetail(e.error);
    const status = detail.type ? STREAM_ERROR_STATUS[detail.type] : undefined;
    if (status) return httpFailure({ status, message: detail.message ?? '', type: detail.type }, target, error);
    return protocolFailure(`an error event: ${detail.message ?? e.message}`, target, error);
  }
  if (error instanceof SyntaxError) return protocolFailure(`an event that is not valid JSON (${error.message})`, target, error);
  if (error instanceof TypeError && /terminated|fetch failed|network|socket/i.test(error.message)) return networkFailure(error, target);
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError('ASSISTANT_PROVIDER_PROTOCOL', `${target.provider} request failed: ${message}`, { cause: error });
}
