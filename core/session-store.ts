import { AssistantError } from './errors.js';
import { Stage, type Hooks } from './hooks.js';
import type { ResolvedConfig } from './types/config.js';
import type { SessionStore } from './types/session.js';
import { didYouMean } from './util/close-matches.js';

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
 * provide a `SessionStore`. Installed only when the config selects a store.
 */
export function bridgeStore(hooks: Hooks, store: () => SessionStore): void {
  hooks.persist.tapPromise({ name: 'session-store', stage: Stage.PERSIST }, (event, info) => store().append(event, info));
  hooks.loadSession.tapPromise({ name: 'session-store', stage: Stage.PERSIST }, (lookup) => store().load(lookup));
}
