import { PermissionError } from '../../../core/index.js';
import { PERMISSION_ERRORS } from '../errors.js';
import type { PolicyLayer } from './shared.js';

/**
 * Start-up imports only what the plugins' `apply` needs (options, rule parsing, hook taps); the code
 * that judges calls is imported here, on first use. A failed import rejects with
 * ASSISTANT_PERMISSION_ENGINE_FAILED, which `permissionTap` turns into a denial: never an allow.
 */
export interface LazyModule<T> {
  /** The module, imported on the first call; concurrent first calls share one import. */
  get(): Promise<T>;
  /** The module once an import has finished, else undefined (synchronous taps abstain until then). */
  loaded(): T | undefined;
}

/** A module imported once, on first use. A failed import is tried again by the next use (each failure denies its call). */
export function lazyModule<T>(what: string, load: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  let value: T | undefined;
  return {
    get() {
      loading ??= load().then(
        (loaded) => (value = loaded),
        (cause: unknown) => {
          loading = undefined;
          throw new PermissionError(
            PERMISSION_ERRORS.ASSISTANT_PERMISSION_ENGINE_FAILED,
            `${what} could not be loaded (${(cause as Error)?.message ?? cause}), so the call is denied, in any permission mode; reinstall assistant`,
            { plugin: 'permissions', cause },
          );
        },
      );
      return loading;
    },
    loaded: () => value,
  };
}

/** The engine every layer judges with (policy.facts) and the read-only lock set proves with. */
export const permissionEngine = lazyModule('the permission engine', () => import('./engine.js'));

/** A layer whose module is imported on its first call; an import that fails, or names no function, denies. */
export function lazyLayer(what: string, load: () => Promise<PolicyLayer | undefined>): PolicyLayer {
  const layer = lazyModule(what, async () => {
    const judge = await load();
    if (typeof judge !== 'function') throw new Error('the module exports no layer function');
    return judge;
  });
  return async (policy, request) => (await layer.get())(policy, request);
}
