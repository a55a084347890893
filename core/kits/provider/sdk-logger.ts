import type { Logger } from '../../kernel/logger.js';

/** The logger interface the official SDKs accept (`logger` client option). */
export interface SdkLogger {
  /** An SDK error message. */
  error(message: string, ...rest: unknown[]): void;
  /** An SDK warning. */
  warn(message: string, ...rest: unknown[]): void;
  /** SDK information. */
  info(message: string, ...rest: unknown[]): void;
  /** SDK detail (requests, retries). */
  debug(message: string, ...rest: unknown[]): void;
}

function details(rest: unknown[]): Record<string, unknown> | undefined {
  if (rest.length === 0) return undefined;
  return { details: rest.map((r) => (r instanceof Error ? r.message : typeof r === 'string' ? r : safeJson(r))) };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Routes an SDK's own logging into a plugin logger (stderr or the log file), so SDK debug dumps
 * never reach stdout, which belongs to the user's output. Returns the SDK log level to match.
 * The SDKs log an error (with the raw chunk) just before they throw it; the thrown error is what
 * gets classified, retried or reported, so their error lines are kept for `--debug` only, where
 * they would otherwise print a wire dump on stderr for a failure that was recovered from.
 */
export function sdkLogging(logger: Logger): { logger: SdkLogger; logLevel: 'debug' | 'warn' } {
  return {
    logger: {
      error: (m, ...rest) => logger.debug(m, details(rest)),
      warn: (m, ...rest) => logger.warn(m, details(rest)),
      info: (m, ...rest) => logger.info(m, details(rest)),
      debug: (m, ...rest) => logger.debug(m, details(rest)),
    },
    logLevel: logger.isEnabled('debug') ? 'debug' : 'warn',
  };
}
