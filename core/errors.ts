/**
 * Every error code, with the exit code it maps to and what it means. Codes are never reused;
 * docs/errors.md documents each (a test keeps the two in step).
 */
export const ERROR_CODES = {
  ASSISTANT_USAGE: { exit: 2, text: 'The command line was not understood.' },
  ASSISTANT_INTERNAL: { exit: 1, text: 'A bug in assistant itself.' },
  ASSISTANT_CONFIG_PARSE: { exit: 2, text: 'A config file is not valid JSON, YAML or JavaScript.' },
  ASSISTANT_CONFIG_INVALID: { exit: 2, text: 'The merged configuration does not match the schema.' },
  ASSISTANT_CONFIG_NOT_FOUND: { exit: 2, text: 'A config file named on the command line or in `extends` does not exist.' },
  ASSISTANT_CONFIG_EXTENDS_CYCLE: { exit: 2, text: '`extends` chains loop back on themselves.' },
  ASSISTANT_CONFIG_WRITE_FAILED: { exit: 1, text: 'A config file could not be written.' },
  ASSISTANT_PLUGIN_NOT_FOUND: { exit: 2, text: 'A plugin package or path could not be resolved from the project directory.' },
  ASSISTANT_PLUGIN_LOAD_FAILED: { exit: 2, text: 'A plugin module threw while being imported.' },
  ASSISTANT_PLUGIN_INVALID: { exit: 2, text: 'A module does not export a plugin (`{ name, apply }`).' },
  ASSISTANT_PLUGIN_OPTIONS_INVALID: { exit: 2, text: "A plugin's options do not match its `optionsSchema`." },
  ASSISTANT_PLUGIN_REQUIRES_MISSING: { exit: 2, text: 'A plugin requires another plugin that is not loaded.' },
  ASSISTANT_PLUGIN_KERNEL_API: { exit: 2, text: 'A plugin was built for an incompatible kernel API version.' },
  ASSISTANT_PLUGIN_APPLY_FAILED: { exit: 1, text: "A plugin's `apply` threw." },
  ASSISTANT_PLUGIN_HOOK_FAILED: { exit: 1, text: 'A plugin threw inside a hook.' },
  ASSISTANT_HOOK_UNKNOWN: { exit: 2, text: 'A plugin used a hook that does not exist.' },
  ASSISTANT_PROVIDER_NOT_CONFIGURED: { exit: 3, text: 'No provider is selected, or it has no API key or base URL.' },
  ASSISTANT_PROVIDER_UNKNOWN: { exit: 2, text: 'No loaded plugin provides the selected provider.' },
  ASSISTANT_PERMISSION_RULE_INVALID: { exit: 2, text: 'A permission rule (`permissions.allow/ask/deny` or the local settings file) cannot be read.' },
  ASSISTANT_PERMISSION_PARSER_FAILED: { exit: 1, text: 'The shell parser could not be loaded, so shell commands cannot be judged (they are denied).' },
} as const;

/** A stable error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Extra fields an error may carry. */
export interface ErrorOptions {
  cause?: unknown;
  /** The plugin at fault. */
  plugin?: string;
  /** The hook that was running. */
  hook?: string;
  /** The file at fault (config, plugin module). */
  file?: string;
}

/** The base of every error assistant raises on purpose: a code, a message for people, and where. */
export class AssistantError extends Error {
  readonly code: ErrorCode;
  readonly plugin?: string;
  readonly hook?: string;
  readonly file?: string;

  constructor(code: ErrorCode, message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.plugin = options.plugin;
    this.hook = options.hook;
    this.file = options.file;
  }

  /** The process exit code for this error. */
  get exitCode(): number {
    return ERROR_CODES[this.code]?.exit ?? 1;
  }
}

/** A configuration problem: names the file, the JSON path and what was expected. */
export class ConfigError extends AssistantError {}
/** A plugin failed to load, validate, apply, or run a hook. */
export class PluginError extends AssistantError {}
/** A model provider failed (auth, network, protocol). */
export class ProviderError extends AssistantError {}
/** The tool runtime failed (not a tool's own failure, which is a result). */
export class ToolError extends AssistantError {}
/** The permission engine failed; it fails closed. */
export class PermissionError extends AssistantError {}

/** True for errors assistant raised on purpose, even from another copy of this module. */
export function isAssistantError(error: unknown): error is AssistantError {
  return error instanceof AssistantError || (typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'string' && String((error as { code: string }).code).startsWith('ASSISTANT_'));
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
