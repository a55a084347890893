import { AssistantError, isAssistantError } from '../kernel/errors.js';
import { Stage, type Hooks } from '../kernel/hooks.js';
import type { ResolvedConfig } from '../types/config.js';
import type { SessionStore } from '../types/session.js';
import { didYouMean } from '../kernel/close-matches.js';

/** The store name the config selects (`persistence.store`), or undefined for in-memory sessions. */
export function selectedStoreName(config: ResolvedConfig): string | undefined {
  const name = config.values.persistence?.store;
  return typeof name === 'string' && name !== 'none' ? name : undefined;
}

/** Creates the store the config selects through the `sessionStore` hook map. */
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
  return created;
}

/**
 * Forwards `persist` and `loadSession` to the selected store, so a store plugin only has to
 * provide a `SessionStore`, and takes the lease of each new session before its first append
 * (resumes take it before loading: the CLI, `/resume`). Installed only when the config selects a store.
 */
export function bridgeStore(hooks: Hooks, store: () => SessionStore, owner: () => string | undefined): void {
  hooks.persist.tapPromise({ name: 'session-store', stage: Stage.PERSIST }, (event, info) =>
    attributed(async () => {
      // A new session (fresh, forked, cleared) is claimed before its first event: no other surface can resume and write it meanwhile.
      if (event.type === 'session_start') await store().acquire(info.id);
      await store().append(event, info);
    }, owner),
  );
  hooks.loadSession.tapPromise({ name: 'session-store', stage: Stage.PERSIST }, (lookup) => attributed(() => store().load(lookup), owner));
}

/**
 * Runs a store call so its own coded error (a `SessionError`, or the selection's ASSISTANT_STORE_UNKNOWN)
 * reaches the caller with its code, attributed to the store's plugin rather than to this bridge.
 */
async function attributed<T>(call: () => Promise<T>, owner: () => string | undefined): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAssistantError(error) && !error.plugin) {
      const plugin = owner();
      if (plugin) Object.defineProperty(error, 'plugin', { value: plugin, enumerable: true });
      else Object.defineProperty(error, 'plugin', { value: 'session-store', enumerable: true });
    }
    throw error;
  }
}
