import type { Json } from '../types/json-schema.js';
import type { ToolContext, ToolDefinition, ToolResult } from '../types/tools.js';
import type { ToolPool } from './pool.js';
import { errorResult, isToolResult, thrownResult } from './results.js';

/** Default limit for one call when a tool sets none. */
export const DEFAULT_TIMEOUT_MS = 120_000;

/** How long a tool gets to stop by itself after it was asked to, before its worker is terminated. */
export const DEFAULT_ABORT_GRACE_MS = 2_000;

/** What one execution needs beyond the definition. */
export interface ExecuteOptions {
  pool: ToolPool;
  input: Record<string, unknown>;
  context: ToolContext;
  /** From the definition's `prepare`. */
  state: { [key: string]: Json };
  timeoutMs: number;
  abortGraceMs: number;
}

/** The time limit of one call: the definition's (fixed or from the input), else the default. */
export function timeoutFor(definition: ToolDefinition<any>, input: Record<string, unknown>): number {
  const { timeoutMs } = definition;
  const value = typeof timeoutMs === 'function' ? timeoutMs(input) : timeoutMs;
  return typeof value === 'number' && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

/**
 * Runs one call in the pool (module tools), or on the main thread (handlers, and module tools'
 * calls their `inline` says are too small for a thread hop). On timeout or batch
 * abort the tool is asked to stop; if it has not returned after the grace period its worker is
 * terminated (and its process groups killed). A throw, a crash or a malformed return value all
 * become error results.
 */
export function executeCall(definition: ToolDefinition<any>, options: ExecuteOptions): Promise<ToolResult> {
  const { context, timeoutMs, abortGraceMs } = options;
  return new Promise<ToolResult>((resolve) => {
    let settled = false;
    let stopReason: 'timeout' | 'aborted' | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const finish = (result: ToolResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      context.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const stopped = (): ToolResult =>
      stopReason === 'timeout'
        ? errorResult('ASSISTANT_TOOL_TIMEOUT', `${definition.name} did not finish within ${formatMs(timeoutMs)} and was stopped.`, { timeoutMs })
        : errorResult('ASSISTANT_TOOL_ABORTED', `${definition.name} was cancelled before it finished.`);

    let worker: ReturnType<ToolPool['run']> | undefined;
    const stopping = new AbortController();
    const stop = (reason: 'timeout' | 'aborted') => {
      if (settled || stopReason) return;
      stopReason = reason;
      stopping.abort(new Error(reason));
      worker?.requestStop(reason);
      graceTimer = setTimeout(() => {
        worker?.terminate();
        finish(stopped());
      }, abortGraceMs);
    };
    const onAbort = () => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    context.signal.addEventListener('abort', onAbort, { once: true });

    let running: Promise<unknown>;
    if (definition.module) {
      let inline = false;
      try {
        inline = definition.inline?.(options.input, context) === true;
      } catch {
        // A predicate that throws says no: the pool.
      }
      worker = options.pool.run(definition.module, definition.export ?? 'run', {
        tool: definition.name,
        callId: context.callId,
        input: options.input,
        projectRoot: context.projectRoot,
        cwd: context.cwd,
        options: definition.options ?? {},
        state: options.state,
        timeoutMs,
        ...(context.sessionId ? { sessionId: context.sessionId } : {}),
        ...(context.agentId ? { agentId: context.agentId } : {}),
      }, inline);
      running = worker.result;
    } else {
      const signal = stopping.signal;
      running = Promise.resolve().then(() => definition.handler!(options.input, { ...context, signal }));
    }
    running.then(
      (value) => {
        if (isToolResult(value)) finish(value);
        else finish(errorResult('ASSISTANT_TOOL_FAILED', `${definition.name} returned something that is not a tool result (a bug in its plugin "${definition.plugin}").`));
      },
      (error: unknown) => {
        if (stopReason) return finish(stopped());
        const crashed = definition.module && /worker exited|terminated/i.test((error as Error)?.message ?? '');
        finish(
          crashed
            ? errorResult('ASSISTANT_TOOL_WORKER_CRASHED', `${definition.name} crashed its worker (${(error as Error).message}); the worker was replaced, so you may retry if the input was not the cause.`)
            : thrownResult(error, `${definition.name} failed: `),
        );
      },
    );
    if (context.signal.aborted) onAbort();
  });
}

const formatMs = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);
