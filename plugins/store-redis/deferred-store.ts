import type { SessionStore } from '../../core/index.js';

/**
 * A store whose implementation is imported and created on its first call: selecting the store
 * costs nothing until a session is read or written. Every call waits for the one creation; a
 * failed creation fails every call (nothing is written anywhere else). Closing a store never
 * used imports nothing.
 */
export function deferredStore(name: string, create: () => Promise<SessionStore>): SessionStore {
  let made: Promise<SessionStore> | undefined;
  const store = () => (made ??= create());
  return {
    name,
    append: async (event, info) => (await store()).append(event, info),
    load: async (lookup) => (await store()).load(lookup),
    resolve: async (prefix, projectRoot) => (await store()).resolve(prefix, projectRoot),
    list: async (query) => (await store()).list(query),
    delete: async (id) => (await store()).delete(id),
    prune: async (query) => (await store()).prune(query),
    acquire: async (sessionId, options) => (await store()).acquire(sessionId, options),
    appendRecords: async (sessionId, channel, records, options) => (await store()).appendRecords(sessionId, channel, records, options),
    readRecords: async (sessionId, channel) => (await store()).readRecords(sessionId, channel),
    holder: async (sessionId) => (await store()).holder?.(sessionId),
    async close() {
      const created = await made?.catch(() => undefined);
      await created?.close();
    },
  };
}
