import { AssistantError, SessionError, isAssistantError } from './errors.js';
import type { Hooks } from './hooks.js';
import type { ResolvedConfig } from '../types/config.js';
import type { SessionStore } from '../types/session.js';
import { didYouMean } from './close-matches.js';

/** The store name the config selects (`persistence.store`), or undefined for in-memory sessions. */
export function selectedStoreName(config: ResolvedConfig): string | undefined {
  const name = config.values.persistence?.store;
  return typeof name === 'string' && name !== 'none' ? name : undefined;
}

/**
 * Creates the store the config selects through the `sessionStore` hook map, wrapped so that every
 * failure of its methods names the store's plugin (see `attributed`).
 */
export function selectStore(hooks: Hooks, config: ResolvedConfig, known: Set<string>, where: string): SessionStore {
  const name = selectedStoreName(config);
  if (!name)
    throw new AssistantError('ASSISTANT_STORE_UNKNOWN', 'sessions are not stored (persistence.store is "none"); set persistence.store to "jsonl" or "redis" in .assistantrc');
  const { store: _store, ...options } = config.values.persistence ?? {};
  const hook = hooks.sessionStore.get(name);
  const created = hook?.isUsed() ? hook.call({ name, options }) : undefined;
  if (!created)
    throw new AssistantError(
      'ASSISTANT_STORE_UNKNOWN',
      `no loaded plugin provides the session store "${name}" (set in ${where})${didYouMean(name, known)}; ` +
        (known.size ? `available: ${[...known].sort().join(', ')}` : "add the store's plugin to plugins in your config"),
    );
  return attributed(created, hook!.taps[0]?.name ?? name);
}

/** The methods of the SessionStore contract: all asynchronous. */
const CONTRACT = new Set(['append', 'load', 'resolve', 'list', 'delete', 'prune', 'acquire', 'appendRecords', 'readRecords', 'close']);

/**
 * The store, with each contract method's failure attributed to the store's plugin: its own coded
 * error (a `SessionError`) keeps its code, anything else becomes ASSISTANT_STORE_UNAVAILABLE with
 * the original as its cause, so a buggy store cannot surface as an uncoded crash.
 */
function attributed(store: SessionStore, plugin: string): SessionStore {
  return new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof key !== 'string' || !CONTRACT.has(key) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } catch (error) {
          if (!isAssistantError(error))
            throw new SessionError('ASSISTANT_STORE_UNAVAILABLE', `the "${store.name}" session store (plugin "${plugin}") failed in ${key}: ${(error as Error)?.message ?? error}`, { plugin, cause: error });
          if (!error.plugin) Object.defineProperty(error, 'plugin', { value: plugin, enumerable: true });
          throw error;
        }
      };
    },
  });
}
