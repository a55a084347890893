/**
 * The errors `fetch` rejects with, in the shapes the provider SDKs and classifySdkError recognize:
 * an abort rejects with the signal's reason (a DOMException named AbortError unless the caller gave
 * another), a failure before the response with TypeError('fetch failed') whose `cause` is the
 * socket's error, a failure while the body streams with TypeError('terminated').
 */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

export function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

export function terminated(cause: unknown): TypeError {
  return new TypeError('terminated', { cause });
}
