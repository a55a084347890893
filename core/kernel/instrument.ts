import { PluginError, isAssistantError, isKernelErrorCode } from './errors.js';
import type { Logger } from './logger.js';

/** The hook surface instrumentation needs (every tapable hook has it). */
interface InterceptableHook {
  intercept(interceptor: {
    register?: (tap: TapInfo) => TapInfo;
    call?: (...args: unknown[]) => void;
  }): void;
}

interface TapInfo {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: Function;
}

/** What instrumentation reports back to the kernel. */
export interface TapTracker {
  /** The plugin whose `apply` (or sync tap) is running, if any. */
  active: string | undefined;
  /** Records that `plugin` tapped `hook`. */
  record(plugin: string, hook: string): void;
}

function wrapError(error: unknown, owner: string, hook: string): unknown {
  // A plugin's own code is already a deliberate, documented failure: it keeps its code and exit status.
  if (isAssistantError(error) && (error.plugin || !isKernelErrorCode(error.code))) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PluginError('ASSISTANT_PLUGIN_HOOK_FAILED', `plugin "${owner}" failed in hook "${hook}": ${message}`, {
    plugin: owner,
    hook,
    cause: error,
  });
}

/**
 * Wraps every tap of `hook` so a failure names the plugin and the hook, records who tapped it,
 * and (with a debug logger) traces each call. Without debug the only cost is the wrapper call.
 */
export function instrumentHook(hook: InterceptableHook, hookName: string, tracker: TapTracker, trace?: Logger): void {
  hook.intercept({
    register(tap) {
      const owner = tracker.active ?? tap.name;
      tracker.record(owner, hookName);
      const fn = tap.fn;
      if (tap.type === 'sync') {
        tap.fn = (...args: unknown[]) => {
          const previous = tracker.active;
          tracker.active = owner;
          try {
            return fn(...args);
          } catch (error) {
            throw wrapError(error, owner, hookName);
          } finally {
            tracker.active = previous;
          }
        };
      } else if (tap.type === 'promise') {
        tap.fn = (...args: unknown[]) => {
          const previous = tracker.active;
          tracker.active = owner;
          try {
            return Promise.resolve(fn(...args)).catch((error: unknown) => {
              throw wrapError(error, owner, hookName);
            });
          } catch (error) {
            return Promise.reject(wrapError(error, owner, hookName));
          } finally {
            tracker.active = previous;
          }
        };
      } else {
        tap.fn = (...args: unknown[]) => {
          const callback = args.pop() as (error?: unknown, result?: unknown) => void;
          try {
            fn(...args, (error?: unknown, result?: unknown) => callback(error ? wrapError(error, owner, hookName) : error, result));
          } catch (error) {
            callback(wrapError(error, owner, hookName));
          }
        };
      }
      return tap;
    },
    ...(trace ? { call: () => trace.debug(`hook ${hookName}`) } : {}),
  });
}
