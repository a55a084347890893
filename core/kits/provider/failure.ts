import { ProviderError } from '../../kernel/errors.js';

/** Where a request was going, so failure messages can say what to check. */
export interface ProviderTarget {
  /** Provider name as configured (`anthropic`, `openai`). */
  provider: string;
  /** The model asked for. */
  model: string;
  /** The endpoint asked. */
  baseURL: string;
  /** The environment variable the API key is read from. */
  keyEnv: string;
}

/** An HTTP error response, as an SDK reports it. */
export interface HttpFailure {
  /** The HTTP status. */
  status: number;
  /** The provider's own message from the error body. */
  message: string;
  /** The provider's error type or code from the body (`rate_limit_error`, `insufficient_quota`, ...). */
  type?: string;
  /** The wait the response asked for (`retry-after`), in milliseconds. */
  retryAfterMs?: number;
}

const MODEL_MISSING = /model/i;
const NOT_FOUND_WORDS = /not[ _-]?found|does not exist|unknown|invalid|no such|not available|pull/i;

/** Turns an HTTP error response into a coded, actionable ProviderError. */
export function httpFailure(failure: HttpFailure, target: ProviderTarget, cause?: unknown): ProviderError {
  const { status, type, retryAfterMs } = failure;
  const said = failure.message ? `: ${failure.message}` : '';
  const where = `${target.provider} at ${target.baseURL}`;
  const base = { cause, status, retryAfterMs };
  if (status === 401)
    return new ProviderError(
      'ASSISTANT_PROVIDER_AUTH',
      `${where} rejected the API key (401${said}); check ${target.keyEnv} (or provider.apiKeyEnv)`,
      base,
    );
  if (status === 403)
    return new ProviderError('ASSISTANT_PROVIDER_AUTH', `${where} refused access (403${said}); the key in ${target.keyEnv} lacks permission for this model or endpoint`, base);
  const mentionsModel = MODEL_MISSING.test(failure.message) && (NOT_FOUND_WORDS.test(failure.message) || status === 404);
  if ((status === 404 || status === 400) && (mentionsModel || type === 'model_not_found'))
    return new ProviderError(
      'ASSISTANT_PROVIDER_MODEL_UNKNOWN',
      `${where} does not know the model "${target.model}" (${status}${said}); set provider.model (or --model) to a model this server serves`,
      base,
    );
  if (status === 404)
    return new ProviderError(
      'ASSISTANT_PROVIDER_NETWORK',
      `${where} answered 404${said}: the base URL is probably wrong (check provider.baseURL; OpenAI-compatible servers usually end in /v1)`,
      base,
    );
  if (status === 429 && (type === 'insufficient_quota' || /quota|billing/i.test(failure.message)))
    return new ProviderError('ASSISTANT_PROVIDER_RATE_LIMITED', `${where}: the account is out of quota (429${said}); check billing`, base);
  if (status === 429)
    return new ProviderError('ASSISTANT_PROVIDER_RATE_LIMITED', `${where} is rate limiting requests (429${said})`, { ...base, retryable: true });
  if (status === 529)
    return new ProviderError('ASSISTANT_PROVIDER_RATE_LIMITED', `${where} is overloaded (529${said})`, { ...base, retryable: true });
  if (status === 408)
    return new ProviderError('ASSISTANT_PROVIDER_TIMEOUT', `${where} timed out the request (408${said})`, { ...base, retryable: true });
  if (status === 409 || status >= 500)
    return new ProviderError('ASSISTANT_PROVIDER_SERVER', `${where} failed (${status}${said})`, { ...base, retryable: true });
  return new ProviderError('ASSISTANT_PROVIDER_BAD_REQUEST', `${where} refused the request (${status}${said})`, base);
}

/** Socket-level error codes found on an error or its causes. */
function errnoCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/** Turns a failure without an HTTP response (refused, reset, DNS, TLS, `TypeError: terminated`) into a ProviderError. */
export function networkFailure(error: unknown, target: ProviderTarget): ProviderError {
  const codes = errnoCodes(error);
  const message = error instanceof Error ? error.message : String(error);
  const where = `${target.provider} at ${target.baseURL}`;
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN'))
    return new ProviderError('ASSISTANT_PROVIDER_NETWORK', `cannot resolve the host of ${target.baseURL}: check provider.baseURL and your network`, {
      cause: error,
      retryable: codes.includes('EAI_AGAIN'),
    });
  if (codes.includes('ECONNREFUSED'))
    return new ProviderError(
      'ASSISTANT_PROVIDER_NETWORK',
      `cannot connect to ${where} (connection refused): is the server running and provider.baseURL right?`,
      { cause: error, retryable: true },
    );
  const detail = codes.length ? `${message} (${codes[0]})` : message;
  return new ProviderError('ASSISTANT_PROVIDER_NETWORK', `the connection to ${where} failed: ${detail}`, { cause: error, retryable: true });
}

/** A reply that is not the provider's documented wire format. */
export function protocolFailure(detail: string, target: ProviderTarget, cause?: unknown): ProviderError {
  return new ProviderError('ASSISTANT_PROVIDER_PROTOCOL', `${target.provider} at ${target.baseURL} sent a malformed reply: ${detail}`, {
    cause,
    retryable: true,
  });
}

/** No response headers within the request timeout. */
export function timeoutFailure(timeoutMs: number, target: ProviderTarget, cause?: unknown): ProviderError {
  return new ProviderError(
    'ASSISTANT_PROVIDER_TIMEOUT',
    `${target.provider} at ${target.baseURL} did not answer within ${timeoutMs} ms (provider.timeoutMs)`,
    { cause, retryable: true },
  );
}
