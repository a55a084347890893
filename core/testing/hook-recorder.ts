import type { HookName, Hooks } from '../kernel/hooks.js';
import type { OriginEvent } from '../types/events.js';

/** The hooks a recorder sees: every hook but the keyed maps (`provider`, `sessionStore`, `contextStrategy`). */
export type RecordedHookName = Exclude<HookName, 'provider' | 'sessionStore' | 'contextStrategy'>;

/** The arguments hook `K` is called with. */
export type HookArgs<K extends RecordedHookName> = Hooks[K] extends { promise(...args: infer A): Promise<unknown> } ? A : never;

/** What hook `K` returns (the waterfall's final value, the bail hook's decision, or `undefined`). */
export type HookResult<K extends RecordedHookName> = Hooks[K] extends { promise(...args: never[]): Promise<infer R> } ? R : never;

/** One call of a hook, as the recorder saw it. */
export interface HookCall<K extends RecordedHookName = RecordedHookName> {
  /** The hook's name. */
  hook: K;
  /** Position among all recorded calls, from 0. */
  seq: number;
  /** The arguments, as passed (not copies: a waterfall's later taps may have changed nested objects). */
  args: HookArgs<K>;
  /** True once the call returned or its promise settled. */
  settled: boolean;
  /** What the call returned (waterfall: the final value; bail: the decision or `undefined`). */
  result?: HookResult<K>;
  /** What the call threw or rejected with, if it failed. */
  error?: unknown;
}

/** Records every call of a kernel's hooks, paired exactly with its outcome, for assertions. */
export interface HookRecorder {
  /** Every recorded call, in the order the calls began. */
  readonly all: readonly HookCall[];
  /** The calls of one hook, in order. */
  calls<K extends RecordedHookName>(hook: K): HookCall<K>[];
  /** The latest call of one hook, if any. */
  last<K extends RecordedHookName>(hook: K): HookCall<K> | undefined;
  /** Hook names in the order their calls began; `only` keeps those hooks. */
  sequence(only?: readonly RecordedHookName[]): RecordedHookName[];
  /** Every event the `event` hook carried (model stream, tools, permissions, notices). */
  readonly events: OriginEvent[];
  /** Forgets everything recorded so far. */
  clear(): void;
}

type Method = 'call' | 'callAsync' | 'promise';
/** tapable's uncompiled entry for each method: it compiles, then calls the method again. */
const DELEGATE: Record<Method, string> = { call: '_call', callAsync: '_callAsync', promise: '_promise' };

/**
 * Starts recording every call of `hooks`. It wraps each hook's call methods (not its taps), so it
 * sees every call whoever made it, pairs each call with its own outcome even when calls of one hook
 * overlap, and adds no tap that could change ordering or the kernel's list of tapped hooks.
 */
export function recordHooks(hooks: Hooks): HookRecorder {
  const all: HookCall[] = [];
  const events: OriginEvent[] = [];
  for (const name of Object.keys(hooks) as HookName[]) {
    if (name === 'provider' || name === 'sessionStore' || name === 'contextStrategy') continue;
    const hook = hooks[name] as unknown as Record<string, unknown>;
    for (const method of ['call', 'callAsync', 'promise'] as const) {
      if (typeof hook[method] !== 'function') continue; // async hooks have no sync `call`
      wrapMethod(hook, method, (args) => {
        const record: HookCall = { hook: name, seq: all.length, args: args as never, settled: false };
        all.push(record);
        if (name === 'event') events.push(args[0] as OriginEvent);
        return record;
      });
    }
  }
  return {
    all,
    events,
    calls: <K extends RecordedHookName>(hook: K) => all.filter((c): c is HookCall<K> => c.hook === hook),
    last<K extends RecordedHookName>(hook: K) {
      const calls = this.calls(hook);
      return calls[calls.length - 1];
    },
    sequence: (only) => all.map((c) => c.hook).filter((h) => !only || only.includes(h)),
    clear() {
      all.length = 0;
      events.length = 0;
    },
  };
}

/**
 * Replaces `hook[method]` with an accessor: tapable keeps assigning its compiled function to the
 * property (after every new tap), the setter keeps it, and the getter hands out a wrapper that
 * records around whatever is current.
 */
function wrapMethod(hook: Record<string, unknown>, method: Method, start: (args: unknown[]) => HookCall): void {
  let current = hook[method] as (...args: unknown[]) => unknown;
  let reentry = false;
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    if (reentry) {
      reentry = false;
      return current.apply(hook, args);
    }
    const fn = current;
    // The uncompiled delegate compiles and calls the method again at once: that inner call is this one.
    reentry = fn === hook[DELEGATE[method]];
    try {
      if (method === 'callAsync') {
        const callback = args.pop() as (error: unknown, result?: unknown) => void;
        const record = start(args);
        return fn.call(hook, ...args, (error: unknown, result?: unknown) => {
          settle(record, error, result);
          callback(error, result);
        });
      }
      const record = start(args);
      let value: unknown;
      try {
        value = fn.apply(hook, args);
      } catch (error) {
        settle(record, error ?? new Error('hook threw'));
        throw error;
      }
      if (method === 'call') settle(record, undefined, value);
      else
        (value as Promise<unknown>).then(
          (result) => settle(record, undefined, result),
          (error: unknown) => settle(record, error ?? new Error('hook rejected')),
        );
      return value;
    } finally {
      reentry = false;
    }
  };
  Object.defineProperty(hook, method, {
    configurable: true,
    enumerable: true,
    get: () => wrapper,
    set: (value: (...args: unknown[]) => unknown) => {
      current = value;
    },
  });
}

function settle(record: HookCall, error: unknown, result?: unknown): void {
  record.settled = true;
  if (error) record.error = error;
  else record.result = result as never;
}
