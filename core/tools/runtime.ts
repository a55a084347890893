import { setMaxListeners } from 'node:events';
import type { Hooks, TurnContext } from '../kernel/hooks.js';
import type { Logger } from '../kernel/logger.js';
import { decidePermission, permissionRequestFor, resolveApprovals } from './permission.js';
import type { EventOrigin, OriginEvent } from '../types/events.js';
import type { ToolCallPart, ToolResultPart } from '../types/messages.js';
import type { ApprovalRequest } from '../types/permission.js';
import type { ProjectFiles, ToolBatchContext, ToolContext, ToolRegistry, ToolResult } from '../types/tools.js';
import { admitCall, type AdmittedCall } from './admit.js';
import { DEFAULT_ABORT_GRACE_MS, executeCall, timeoutFor } from './execute.js';
import { IdempotencyCache } from './idempotency.js';
import { lockSetFor } from './lock-set.js';
import { LockTable } from './locks.js';
import { realPath } from './paths.js';
import { ToolPool, type PoolOptions } from './pool.js';
import { ResultCache } from './result-cache.js';
import { errorResult, thrownResult, toResultPart } from './results.js';
import { InputValidators } from './validate.js';
import { createProjectFiles } from './watcher.js';

/** Tuning of the tool runtime (tests shorten the grace period; embedders size the pool). */
export interface ToolRuntimeOptions extends PoolOptions {
  /** How long a tool gets to stop after a timeout or cancel before its worker is terminated. Default 2 s. */
  abortGraceMs?: number;
  /** Results remembered per session for replayed call ids. Default 500. */
  idempotencyPerSession?: number;
}

/** What the runtime needs from its kernel. */
export interface ToolRuntimeDeps {
  hooks: Hooks;
  registry: ToolRegistry;
  projectRoot: string;
  cwd: string;
  headless: boolean;
  logger: Logger;
}

/** The tool runtime of one kernel. */
export interface ToolRuntime {
  run(calls: ToolCallPart[], batch: ToolBatchContext): Promise<ToolResultPart[]>;
  readonly files: ProjectFiles;
  /** Live worker threads (0 until the first worker call). */
  readonly poolThreads: number;
  close(): Promise<void>;
}

/**
 * Builds the single pipeline every tool call takes: admission (unknown tool, filter, incomplete
 * input, schema, `beforeToolCall`) → permission, with the batch's `ask` decisions approved
 * together → lock scheduler → execute (worker or handler) → `afterToolCall`; results in call order.
 */
export function createToolRuntime(deps: ToolRuntimeDeps, options: ToolRuntimeOptions = {}): ToolRuntime {
  const { hooks, registry, logger } = deps;
  const projectRoot = realPath(deps.projectRoot);
  const cwd = realPath(deps.cwd);
  const pool = new ToolPool(options);
  const files = createProjectFiles(projectRoot, logger);
  const results = new ResultCache(files);
  const replays = new IdempotencyCache(options.idempotencyPerSession ?? 500);
  const locks = new LockTable();
  const validators = new InputValidators();
  const abortGraceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;

  // A worker tool's thread boots while the model still streams the call's input (not for a tool whose
  // calls may run inline: a batch of small Reads then never starts one).
  const warm = (definition: { inline?: unknown; module?: string } | undefined) => !definition?.inline && pool.warm(definition?.module);
  hooks.event.tap('tool-runtime:warm-up', (e) => e.type === 'model' && e.event.type === 'tool_call_start' && warm(registry.get(e.event.name)));

  const emit = (event: OriginEvent) => {
    try {
      hooks.event.call(event);
    } catch (error) {
      logger.error(`an event observer failed: ${(error as Error)?.message ?? error}`);
    }
  };

  async function execute(admitted: AdmittedCall, batch: ToolBatchContext, turn: TurnContext): Promise<ToolResultPart> {
    const { definition, call } = admitted;
    const origin = originOf(batch);
    const lockSet = lockSetFor(hooks, call, definition, { projectRoot, cwd }, logger);
    let release: () => void;
    try {
      release = await locks.acquire(lockSet, batch.signal);
    } catch {
      return finishEarly(call, errorResult('ASSISTANT_TOOL_ABORTED', `${call.name} was cancelled before it started.`), batch, summarize(admitted));
    }
    const started = performance.now();
    emit({ type: 'tool_start', call, summary: summarize(admitted), ...origin });
    const context: ToolContext = {
      callId: call.id,
      projectRoot,
      cwd,
      signal: batch.signal,
      sessionId: batch.sessionId,
      agentId: batch.agentId,
      mode: batch.mode,
      model: batch.model,
      toolFilter: batch.toolFilter,
    };
    let result: ToolResult;
    try {
      const key = results.key(definition, call.input, cwd);
      const cached = key === undefined ? undefined : results.get(definition, key);
      if (cached) result = cached;
      else {
        const mark = results.mark(definition, key, lockSet);
        const prepared = definition.prepare?.(call.input, context);
        result =
          prepared?.result ??
          (await executeCall(definition, {
            pool,
            input: call.input,
            context,
            state: prepared?.state ?? {},
            timeoutMs: timeoutFor(definition, call.input),
            abortGraceMs,
          }));
        if (key !== undefined) results.set(definition, key, lockSet, result, mark);
      }
      // Our own writes invalidate caches before anyone can read again (and before `settle` records new state).
      if (lockSet.writes.length) files.changed(lockSet.writes);
      definition.settle?.(result, call.input, context);
    } catch (error) {
      result = thrownResult(error, `${call.name} failed: `);
    } finally {
      release();
    }
    let part = toResultPart(call.id, result);
    try {
      part = await hooks.afterToolCall.promise(part, { definition, turn, call });
    } catch (error) {
      part = toResultPart(call.id, thrownResult(error, `the result of ${call.name} could not be processed: `));
    }
    emit({ type: 'tool_end', call, result: part, durationMs: performance.now() - started, ...metadataOf(part), ...origin });
    return part;
  }

  /** Ends a call that never ran; `summary` is its key argument when the input was valid (a denied or cancelled call). */
  function finishEarly(call: ToolCallPart, result: ToolResult, batch: ToolBatchContext, summary = ''): ToolResultPart {
    const origin = originOf(batch);
    const part = toResultPart(call.id, result);
    emit({ type: 'tool_start', call, summary, ...origin });
    emit({ type: 'tool_end', call, result: part, durationMs: 0, ...metadataOf(part), ...origin });
    return part;
  }

  async function run(calls: ToolCallPart[], outer: ToolBatchContext): Promise<ToolResultPart[]> {
    // One internal signal per batch: every call and lock waiter listens to it, not to the caller's.
    const cancel = new AbortController();
    setMaxListeners(0, cancel.signal);
    const forward = () => cancel.abort(outer.signal.reason);
    if (outer.signal.aborted) forward();
    else outer.signal.addEventListener('abort', forward, { once: true });
    try {
      return await runBatch(calls, { ...outer, signal: cancel.signal });
    } finally {
      outer.signal.removeEventListener('abort', forward);
    }
  }

  async function runBatch(calls: ToolCallPart[], batch: ToolBatchContext): Promise<ToolResultPart[]> {
    // Call ids are unique per conversation, and every agent has its own: replays are looked up per agent.
    const session = `${batch.sessionId ?? ''}${batch.agentId ? `\0${batch.agentId}` : ''}`;
    const turn: TurnContext = { turn: batch.turn, sessionId: batch.sessionId, agentId: batch.agentId, signal: batch.signal };
    const slots: Promise<ToolResultPart>[] = [];
    const fresh: { call: ToolCallPart; settle: (part: Promise<ToolResultPart>) => void }[] = [];
    for (const call of calls) {
      const replay = replays.get(session, call.id);
      if (replay) {
        slots.push(replay);
        continue;
      }
      let settle!: (part: Promise<ToolResultPart>) => void;
      const slot = new Promise<ToolResultPart>((resolve) => (settle = resolve));
      replays.set(session, call.id, slot);
      slot.then((part) => {
        if (part.metadata?.code === 'ASSISTANT_TOOL_ABORTED') replays.delete(session, call.id);
      });
      slots.push(slot);
      fresh.push({ call, settle });
    }

    // Admission and permission, one call after another in call order.
    const ready: { admitted: AdmittedCall; settle: (part: Promise<ToolResultPart>) => void }[] = [];
    const asks: { admitted: AdmittedCall; settle: (part: Promise<ToolResultPart>) => void; approval: ApprovalRequest }[] = [];
    const scope = { projectRoot, cwd, mode: batch.mode, headless: deps.headless, sessionId: batch.sessionId, agentId: batch.agentId };
    for (const { call, settle } of fresh) {
      const admission = await admitCall(call, batch, turn, { hooks, registry, validators });
      if ('refused' in admission) {
        settle(Promise.resolve(finishEarly(call, admission.refused, batch)));
        continue;
      }
      const request = permissionRequestFor(admission.admitted.definition, admission.admitted.call, scope);
      const decision = await decidePermission(hooks, request);
      emit({ type: 'permission', request, decision, ...originOf(batch) });
      if (decision.behavior === 'allow') ready.push({ admitted: admission.admitted, settle });
      else if (decision.behavior === 'ask') asks.push({ admitted: admission.admitted, settle, approval: { request, decision } });
      else settle(Promise.resolve(finishEarly(call, denial(call.name, decision.reason), batch, summarize(admission.admitted))));
    }
    const answers = await resolveApprovals(
      hooks,
      asks.map((a) => a.approval),
      deps.headless,
    );
    asks.forEach((ask, i) => {
      const answer = answers[i]!;
      const reason = answer.message ?? (answer.behavior === 'allow' ? 'approved by the user' : 'the user declined');
      emit({ type: 'permission', request: ask.approval.request, decision: { behavior: answer.behavior, reason, layer: 'approval' }, ...originOf(batch) });
      if (answer.behavior === 'allow') ready.push(ask);
      else ask.settle(Promise.resolve(finishEarly(ask.admitted.call, denial(ask.admitted.call.name, reason), batch, summarize(ask.admitted))));
    });

    // Into the lock table in call order, so conflicting calls keep their order.
    const order = new Map(calls.map((c, i) => [c.id, i]));
    ready.sort((a, b) => order.get(a.admitted.call.id)! - order.get(b.admitted.call.id)!);
    for (const item of ready)
      item.settle(execute(item.admitted, batch, turn).catch((error: unknown) => toResultPart(item.admitted.call.id, thrownResult(error, `${item.admitted.call.name} failed: `))));
    return Promise.all(slots);
  }

  return {
    run,
    files,
    get poolThreads() {
      return pool.threads;
    },
    async close() {
      await Promise.all([pool.close(), files.close()]);
    },
  };
}

/** Where a batch's events come from; a sub-agent's carry the call that started it. */
function originOf(batch: ToolBatchContext): EventOrigin {
  return { agentId: batch.agentId, sessionId: batch.sessionId, ...(batch.parentCallId ? { parentCallId: batch.parentCallId } : {}) };
}

function denial(tool: string, reason: string): ToolResult {
  return errorResult('ASSISTANT_TOOL_DENIED', `Permission to run ${tool} was denied: ${reason}`);
}

function summarize({ definition, call }: AdmittedCall): string {
  try {
    return definition.summarize?.(call.input) ?? '';
  } catch {
    return '';
  }
}

/** The tool's structured facts on its `tool_end` event, for observers' one-line summaries. */
function metadataOf(part: ToolResultPart): { metadata?: ToolResultPart['metadata'] } {
  return part.metadata ? { metadata: part.metadata } : {};
}
