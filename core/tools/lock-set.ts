import type { Hooks } from '../kernel/hooks.js';
import type { Logger } from '../kernel/logger.js';
import type { ToolCallPart } from '../types/messages.js';
import type { LockContext, LockSet, ToolDefinition } from '../types/tools.js';
import { LOCK_EVERYTHING } from './locks.js';
import { resolveToolPath } from './paths.js';

function keys(value: unknown, context: LockContext): string[] | undefined {
  if (!Array.isArray(value) || !value.every((k) => typeof k === 'string')) return undefined;
  return value.map((k: string) => (k === '*' || k.startsWith('@') ? k : resolveToolPath(k, context.projectRoot)));
}

/** A lock set with every key resolved, or undefined when it is not a lock set at all. */
function normalize(value: LockSet | undefined, context: LockContext): LockSet | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const reads = keys(value.reads ?? [], context);
  const writes = keys(value.writes ?? [], context);
  return reads && writes ? { reads, writes } : undefined;
}

/**
 * What a call reads and writes: the `lockSet` hook first (a policy may prove a command read-only),
 * else the tool's `access` (a function of the input, or `read`/`write` over `risk.paths`, or over
 * everything when it names no path). Anything that fails or makes no sense locks everything.
 */
export function lockSetFor(hooks: Hooks, call: ToolCallPart, definition: ToolDefinition<any>, context: LockContext, logger: Logger): LockSet {
  try {
    const fromHook = hooks.lockSet.call(call, definition, context);
    if (fromHook !== undefined) return normalize(fromHook, context) ?? LOCK_EVERYTHING;
    const { access } = definition;
    if (typeof access === 'function') return normalize(access(call.input, context), context) ?? LOCK_EVERYTHING;
    const paths = (definition.risk.paths?.(call.input) ?? []).map((p) => resolveToolPath(p, context.projectRoot));
    if (access === 'read') return { reads: paths.length ? paths : ['*'], writes: [] };
    return paths.length ? { reads: [], writes: paths } : LOCK_EVERYTHING;
  } catch (error) {
    logger.debug(`lock set of ${call.name} (${call.id}) failed, locking everything: ${(error as Error)?.message ?? error}`);
    return LOCK_EVERYTHING;
  }
}
