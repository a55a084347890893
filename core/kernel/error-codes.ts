import { ERROR_CODES, PluginError, isAssistantError, type ErrorCodeDefinition } from './errors.js';

/** UPPER_SNAKE with a prefix: `ACME_QUOTA_EXCEEDED`, never a bare `QUOTA`. */
const CODE_SHAPE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** Codes that read as assistant's own: only the kernel and the plugins shipped with it declare them. */
const RESERVED_PREFIX = 'ASSISTANT_';

/** What a plugin writes for each of its codes. */
export interface ErrorCodeSpec {
  /** The process exit status when the error ends a run (1 to 125, or 130 for an interruption). */
  exit: number;
  /** One line for people: what the code means. */
  text: string;
}

/** A plugin's declared codes, keyed by code (what `defineErrorCodes` returns, and a plugin's `errors`). */
export type ErrorCodeTable<Code extends string = string> = { readonly [K in Code]: ErrorCodeDefinition<K> };

/** A registered code and who owns it. */
export interface RegisteredErrorCode extends ErrorCodeDefinition {
  /** `kernel`, or the name of the plugin that declared the code. */
  readonly owner: string;
}

/** The codes a kernel knows: its own and those of every loaded plugin. */
export interface ErrorCodeRegistry {
  /** The code's definition and owner, when some loaded plugin (or the kernel) declared it. */
  get(code: string): RegisteredErrorCode | undefined;
  /** Every registered code, the kernel's first, then each plugin's in load order. */
  list(): RegisteredErrorCode[];
  /** The exit status for an error that ends a run: its code's registered status, else its own, else 1. */
  exitStatus(error: unknown): number;
}

/** Why `code: spec` cannot be declared, or undefined when it can. */
function problemWith(code: string, spec: unknown): string | undefined {
  if (!CODE_SHAPE.test(code)) return `"${code}" is not UPPER_SNAKE with a prefix (e.g. ACME_QUOTA_EXCEEDED)`;
  const { exit, text } = (spec ?? {}) as Partial<ErrorCodeSpec>;
  if (!Number.isInteger(exit) || !((exit! >= 1 && exit! <= 125) || exit === 130))
    return `${code}: exit must be an integer from 1 to 125, or 130 for an interruption (got ${JSON.stringify(exit)})`;
  if (typeof text !== 'string' || !text.trim() || text.includes('\n')) return `${code}: text must be one non-empty line`;
  return undefined;
}

/** Checks a table of code → `{ exit, text }` and returns its definitions; throws naming every problem. */
function definitionsOf(table: unknown, who: string): ErrorCodeDefinition[] {
  if (!table || typeof table !== 'object' || Array.isArray(table))
    throw new PluginError('ASSISTANT_PLUGIN_ERROR_CODES_INVALID', `${who}: error codes must be an object of CODE → { exit, text }`);
  const entries = Object.entries(table as Record<string, unknown>);
  const problems = entries.map(([code, spec]) => problemWith(code, spec)).filter((p): p is string => p !== undefined);
  if (problems.length) throw new PluginError('ASSISTANT_PLUGIN_ERROR_CODES_INVALID', `${who}: ${problems.join('; ')}`);
  return entries.map(([code, spec]) => Object.freeze({ code, exit: (spec as ErrorCodeSpec).exit, text: (spec as ErrorCodeSpec).text }));
}

/**
 * Declares a plugin's error codes where the plugin lives. Give the result to the plugin's `errors`
 * (so the kernel registers it, refusing a code someone else owns) and build errors from its entries
 * (`new AssistantError(ACME_ERRORS.ACME_QUOTA_EXCEEDED, '...')`), which carry their exit status.
 */
export function defineErrorCodes<const Specs extends Record<string, ErrorCodeSpec>>(specs: Specs): ErrorCodeTable<keyof Specs & string> {
  const definitions = definitionsOf(specs, 'defineErrorCodes');
  return Object.freeze(Object.fromEntries(definitions.map((d) => [d.code, d]))) as ErrorCodeTable<keyof Specs & string>;
}

/** A registry holding the kernel's own codes; plugins' codes are added as they load. */
export function createErrorCodeRegistry(): ErrorCodeRegistry & {
  /**
   * Registers `owner`'s codes; refuses a malformed one, one the kernel or another plugin owns
   * (naming both), and an `ASSISTANT_` code from a plugin not shipped with assistant (`builtIn`).
   */
  register(owner: string, table: unknown, builtIn?: boolean): void;
} {
  const codes = new Map<string, RegisteredErrorCode>();
  for (const [code, { exit, text }] of Object.entries(ERROR_CODES)) codes.set(code, Object.freeze({ code, exit, text, owner: 'kernel' }));
  return {
    get: (code) => codes.get(code),
    list: () => [...codes.values()],
    exitStatus(error) {
      if (!isAssistantError(error)) return 1;
      const registered = codes.get(error.code)?.exit;
      if (registered !== undefined) return registered;
      // An error from another copy of the package (or a hand-made one) may carry anything here.
      const own: unknown = error.exitCode;
      return Number.isInteger(own) && (own as number) > 0 && (own as number) < 256 ? (own as number) : 1;
    },
    register(owner, table, builtIn = false) {
      const definitions = definitionsOf(table, `plugin "${owner}"`);
      const taken = definitions.filter((d) => codes.has(d.code));
      if (taken.length)
        throw new PluginError(
          'ASSISTANT_PLUGIN_ERROR_CODES_INVALID',
          taken
            .map((d) => {
              const holder = codes.get(d.code)!.owner;
              return `plugin "${owner}" declares ${d.code}, which ${holder === 'kernel' ? 'the kernel' : `plugin "${holder}"`} already owns`;
            })
            .join('; ') + '; a code has one owner: give yours a prefix of its own',
          { plugin: owner },
        );
      const reserved = builtIn ? [] : definitions.filter((d) => d.code.startsWith(RESERVED_PREFIX));
      if (reserved.length)
        throw new PluginError(
          'ASSISTANT_PLUGIN_ERROR_CODES_INVALID',
          `plugin "${owner}" declares ${reserved.map((d) => d.code).join(', ')}: the ${RESERVED_PREFIX} prefix belongs to assistant and its built-in plugins; use a prefix of your own (e.g. ${owner.replace(/^@[^/]+\//, '').replace(/[^a-zA-Z0-9]+/g, '_').toUpperCase()}_...)`,
          { plugin: owner },
        );
      for (const d of definitions) codes.set(d.code, Object.freeze({ ...d, owner }));
    },
  };
}
