/**
 * The kernel's own error codes, with the exit status each maps to and what it means. Plugins declare
 * theirs where they live (`defineErrorCodes`, the plugin's `errors`). Codes are never reused;
 * docs/errors.md documents every registered code (a test keeps the two in step).
 */
export const ERROR_CODES = {
  ASSISTANT_PLUGIN_ERROR_CODES_INVALID: { exit: 2, text: 'A plugin declares an error code that is malformed, that the kernel or another plugin already owns, or that takes the `ASSISTANT_` prefix without being shipped with assistant.' },
  ASSISTANT_USAGE: { exit: 2, text: 'The command line was not understood.' },
  ASSISTANT_INTERNAL: { exit: 1, text: 'A bug in assistant itself.' },
  ASSISTANT_CONFIG_PARSE: { exit: 2, text: 'A config file is not valid JSON, YAML or JavaScript.' },
  ASSISTANT_CONFIG_INVALID: { exit: 2, text: 'The merged configuration does not match the schema.' },
  ASSISTANT_CONFIG_NOT_FOUND: { exit: 2, text: 'A config file named on the command line or in `extends` does not exist.' },
  ASSISTANT_CONFIG_EXTENDS_CYCLE: { exit: 2, text: '`extends` chains loop back on themselves.' },
  ASSISTANT_CONFIG_WRITE_FAILED: { exit: 1, text: 'A config file could not be written.' },
  ASSISTANT_PLUGIN_NOT_FOUND: { exit: 2, text: 'A plugin package or path could not be resolved from the project directory.' },
  ASSISTANT_PLUGIN_LOAD_FAILED: { exit: 2, text: 'A plugin module, or a part a plugin imports on first use (lazyImport), threw while being imported.' },
  ASSISTANT_PLUGIN_INVALID: { exit: 2, text: 'A module does not export a plugin (`{ name, apply }`).' },
  ASSISTANT_PLUGIN_OPTIONS_INVALID: { exit: 2, text: "A plugin's options do not match its `optionsSchema`." },
  ASSISTANT_PLUGIN_REQUIRES_MISSING: { exit: 2, text: 'A plugin requires another plugin that is not loaded.' },
  ASSISTANT_PLUGIN_KERNEL_API: { exit: 2, text: 'A plugin was built for an incompatible kernel API version.' },
  ASSISTANT_PLUGIN_APPLY_FAILED: { exit: 1, text: "A plugin's `apply` threw." },
  ASSISTANT_PLUGIN_HOOK_FAILED: { exit: 1, text: 'A plugin threw inside a hook.' },
  ASSISTANT_HOOK_UNKNOWN: { exit: 2, text: 'A plugin used a hook that does not exist.' },
  ASSISTANT_PROVIDER_NOT_CONFIGURED: { exit: 3, text: 'No provider is selected, or it has no API key or base URL.' },
  ASSISTANT_PROVIDER_UNKNOWN: { exit: 2, text: 'No loaded plugin provides the selected provider.' },
  ASSISTANT_PROVIDER_OPTIONS_INVALID: { exit: 2, text: 'A `provider:` option has a bad value (the message names its JSON path).' },
  ASSISTANT_PROVIDER_AUTH: { exit: 3, text: 'The provider rejected the API key (401) or the key lacks permission (403).' },
  ASSISTANT_PROVIDER_MODEL_UNKNOWN: { exit: 3, text: 'The provider does not know the configured model.' },
  ASSISTANT_PROVIDER_BAD_REQUEST: { exit: 3, text: 'The provider refused the request as invalid (400, 413, 422).' },
  ASSISTANT_PROVIDER_RATE_LIMITED: { exit: 3, text: 'Rate limited (429) or overloaded (529) and still so after every retry.' },
  ASSISTANT_PROVIDER_SERVER: { exit: 3, text: 'The provider failed (5xx) on every retry.' },
  ASSISTANT_PROVIDER_NETWORK: { exit: 3, text: 'The provider could not be reached: connection refused or reset, DNS failure, wrong base URL.' },
  ASSISTANT_PROVIDER_TIMEOUT: { exit: 3, text: 'No response headers within the request timeout.' },
  ASSISTANT_PROVIDER_IDLE_TIMEOUT: { exit: 3, text: 'The response stream stalled: no event within the idle timeout.' },
  ASSISTANT_PROVIDER_STREAM_CUT: { exit: 3, text: 'The response stream broke off after part of the reply was streamed, and it could not be retried (the retries ran out or the failure is not retryable).' },
  ASSISTANT_PROVIDER_PROTOCOL: { exit: 3, text: 'The provider sent something that is not its documented wire format (malformed event or body).' },
  ASSISTANT_PROVIDER_REQUEST_BODY: { exit: 1, text: "The HTTP client was handed a request body it cannot send (not text, bytes, a form, a Blob or a stream): a provider plugin's bug." },
  ASSISTANT_PROVIDER_ABORTED: { exit: 130, text: 'The request was aborted (Ctrl+C or a cancelled turn).' },
  ASSISTANT_CONTEXT_OVERFLOW: { exit: 4, text: "A request would not fit the model's context window, and the context strategy could not make it fit." },
  ASSISTANT_CONTEXT_STRATEGY_UNKNOWN: { exit: 2, text: '`context.strategy` names a strategy no loaded plugin provides.' },
  ASSISTANT_PRICE_UNKNOWN: { exit: 2, text: '`limits.maxCostUsd` is set but no price is configured for the model (`pricing`).' },
  ASSISTANT_STORE_UNKNOWN: { exit: 2, text: 'No loaded plugin provides the session store `persistence.store` selects.' },
  ASSISTANT_STORE_UNAVAILABLE: { exit: 1, text: 'The session store cannot be reached or written (disk full, Redis down with `onDisconnect: stop`).' },
  ASSISTANT_SESSION_NOT_FOUND: { exit: 2, text: 'No stored session matches the id, prefix or project given.' },
  ASSISTANT_SESSION_AMBIGUOUS: { exit: 2, text: 'A session id prefix matches more than one session.' },
  ASSISTANT_SESSION_IN_USE: { exit: 1, text: 'Another surface (terminal, process) holds the session; `--take-over` takes it.' },
  ASSISTANT_SESSION_TAKEN_OVER: { exit: 1, text: 'Another surface took the session over; this one stops writing to it.' },
  ASSISTANT_SESSION_CORRUPT: { exit: 1, text: 'A session file cannot be read as a session (not a torn last line, which is skipped).' },
  ASSISTANT_TOOL_UNKNOWN: { exit: 1, text: 'The model called a tool that does not exist or is not allowed here.' },
  ASSISTANT_TOOL_INPUT_INVALID: { exit: 1, text: "A tool call's input is incomplete JSON or does not match the tool's schema." },
  ASSISTANT_TOOL_PATH_INVALID: { exit: 1, text: 'A tool was given a path it cannot use (NUL byte, empty, not a string).' },
  ASSISTANT_TOOL_DENIED: { exit: 1, text: 'A tool call was denied by a permission policy or the user.' },
  ASSISTANT_TOOL_FAILED: { exit: 1, text: 'A tool threw, or a hook around it failed, instead of returning a result.' },
  ASSISTANT_TOOL_TIMEOUT: { exit: 1, text: 'A tool call ran past its time limit and was stopped.' },
  ASSISTANT_TOOL_ABORTED: { exit: 130, text: 'A tool call was cancelled (Ctrl+C or the run ended).' },
  ASSISTANT_TOOL_WORKER_CRASHED: { exit: 1, text: "A tool's worker thread died; the pool replaced it." },
} as const;

/** A code the kernel itself owns. */
export type KernelErrorCode = keyof typeof ERROR_CODES;

/**
 * A stable error code: one of the kernel's (offered by autocompletion) or one a plugin declared
 * (`ACME_QUOTA_EXCEEDED`).
 */
export type ErrorCode = KernelErrorCode | (string & {});

/** One declared error code: what `defineErrorCodes` returns for each code, and what errors are built from. */
export interface ErrorCodeDefinition<Code extends string = string> {
  /** The code, UPPER_SNAKE with a prefix (`ACME_QUOTA_EXCEEDED`). */
  readonly code: Code;
  /** The process exit status when the error ends a run (1 to 125, or 130 for an interruption). */
  readonly exit: number;
  /** One line for people: what the code means (docs/errors.md says the same). */
  readonly text: string;
}

/** True when `code` is one of the kernel's own codes. */
export function isKernelErrorCode(code: string): code is KernelErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

/** Marks errors raised on purpose, so a copy of this module loaded twice still recognizes them. */
const BRAND = Symbol.for('@assistant-cli/assistant.AssistantError');

/** The exit status of the definition each error was built from (kept off the error's own fields). */
const definedExits = new WeakMap<object, number>();

/** Extra fields an error may carry. */
export interface ErrorOptions {
  /** The underlying error, kept as the standard `cause`. */
  cause?: unknown;
  /** The plugin at fault. */
  plugin?: string;
  /** The hook that was running. */
  hook?: string;
  /** The file at fault (config, plugin module). */
  file?: string;
}

/** The package's error classes by their names: the bundles rename classes (minified), a plugin's subclass keeps its own. */
const OWN_NAMES = new Map<Function, string>();

/** The base of every error assistant raises on purpose: a code, a message for people, and where. */
export class AssistantError extends Error {
  /** The stable code (see docs/errors.md). */
  readonly code: ErrorCode;
  /** The plugin at fault, when known. */
  readonly plugin?: string;
  /** The hook that was running, when known. */
  readonly hook?: string;
  /** The file at fault (config, plugin module), when known. */
  readonly file?: string;

  /** `code` is a kernel code by name, or a plugin's definition (which carries its exit status). */
  constructor(code: ErrorCode | ErrorCodeDefinition, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = OWN_NAMES.get(new.target) ?? new.target.name;
    if (typeof code === 'string') this.code = code;
    else {
      this.code = code.code;
      definedExits.set(this, code.exit);
    }
    this.plugin = options.plugin;
    this.hook = options.hook;
    this.file = options.file;
  }

  /**
   * The process exit status for this error: its definition's, else the kernel code's, else 1. A
   * plugin's code thrown by name alone maps through the kernel's registry (`kernel.errorCodes`).
   */
  get exitCode(): number {
    return definedExits.get(this) ?? (isKernelErrorCode(this.code) ? ERROR_CODES[this.code].exit : 1);
  }
}
Object.defineProperty(AssistantError.prototype, BRAND, { value: true });

/** A configuration problem: names the file, the JSON path and what was expected. */
export class ConfigError extends AssistantError {}
/** A plugin failed to load, validate, apply, or run a hook. */
export class PluginError extends AssistantError {}
/** What a provider failure says about retrying. */
export interface ProviderErrorOptions extends ErrorOptions {
  /** Worth another attempt (rate limit, overload, 5xx, network, timeout). */
  retryable?: boolean;
  /** How long the provider asked us to wait (`retry-after`), in milliseconds. */
  retryAfterMs?: number;
  /** The HTTP status, when there was a response. */
  status?: number;
}

/** A model provider failed (auth, network, protocol). */
export class ProviderError extends AssistantError {
  /** Worth another attempt (rate limit, overload, 5xx, network, timeout). */
  readonly retryable: boolean;
  /** How long the provider asked us to wait, in milliseconds. */
  readonly retryAfterMs?: number;
  /** The HTTP status, when there was a response. */
  readonly status?: number;

  constructor(code: ErrorCode | ErrorCodeDefinition, message: string, options: ProviderErrorOptions = {}) {
    super(code, message, options);
    this.retryable = options.retryable ?? false;
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
  }
}
/** The tool runtime failed (not a tool's own failure, which is a result). */
export class ToolError extends AssistantError {}
/** The permission engine failed; it fails closed. */
export class PermissionError extends AssistantError {}
/** The context could not be built within the model's window. */
export class ContextError extends AssistantError {}
/** A session store failed, or a session cannot be found, opened or written. */
export class SessionError extends AssistantError {}
for (const [type, name] of [[AssistantError, 'AssistantError'], [ConfigError, 'ConfigError'], [PluginError, 'PluginError'], [ProviderError, 'ProviderError'], [ToolError, 'ToolError'], [PermissionError, 'PermissionError'], [ContextError, 'ContextError'], [SessionError, 'SessionError']] as const) OWN_NAMES.set(type, name);

/** True for errors assistant raised on purpose, even from another copy of this module. */
export function isAssistantError(error: unknown): error is AssistantError {
  if (error instanceof AssistantError) return true;
  if (typeof error !== 'object' || error === null || typeof (error as { code?: unknown }).code !== 'string') return false;
  return (error as { [BRAND]?: unknown })[BRAND] === true || (error as { code: string }).code.startsWith('ASSISTANT_');
}

/** A one-line message for people: `CODE: message`. */
export function formatError(error: unknown, debug = false): string {
  if (isAssistantError(error)) {
    const head = `${error.code}: ${error.message}`;
    return debug && error.stack ? `${head}\n${error.stack}${causeChain(error)}` : head;
  }
  const e = error instanceof Error ? error : new Error(String(error));
  return debug ? `ASSISTANT_INTERNAL: ${e.stack ?? e.message}` : `ASSISTANT_INTERNAL: ${e.message} (run with --debug for details)`;
}

function causeChain(error: Error): string {
  let out = '';
  let cause = error.cause;
  while (cause) {
    out += `\nCaused by: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return out;
}
