import type { Hooks } from '../kernel/hooks.js';
import type { Logger } from '../kernel/logger.js';
import type { ToolCallPart } from '../types/messages.js';
import type { LockContext, LockSet, ToolDefinition } from '../types/tools.js';
import { declaredLists, declaredLockSet, isResourceKey } from './declared.js';
import { LOCK_EVERYTHING } from './locks.js';
import { resolveToolPath } from './paths.js';

/** A key as the lock table compares it: paths resolved; `~` paths (a home folder some tools expand) may be anywhere, so everything. */
function lockKey(key: string, context: LockContext): string {
  if (key === '*' || isResourceKey(key)) return key;
  if (key.startsWith('~')) return '*';
  return resolveToolPath(key, context.projectRoot);
}

/** A lock set with every key resolved, or undefined when it is not a lock set at all. */
function normalize(value: unknown, context: LockContext): LockSet | undefined {
  const lists = declaredLists(value);
  if (!lists || ![...lists.reads, ...lists.writes].every((k) => typeof k === 'string')) return undefined;
  return { reads: (lists.reads as string[]).map((k) => lockKey(k, context)), writes: (lists.writes as string[]).map((k) => lockKey(k, context)) };
}

/**
 * What a call reads and writes: the `lockSet` hook first (a policy may prove a command read-only),
 * else the tool's `access` (a function of the input, or `read`/`write` of everything). Anything that
 * fails or makes no sense locks everything.
 */
export function lockSetFor(hooks: Hooks, call: ToolCallPart, definition: ToolDefinition<any>, context: LockContext, logger: Logger): LockSet {
  try {
    const fromHook = hooks.lockSet.call(call, definition, context);
    if (fromHook !== undefined) return normalize(fromHook, context) ?? LOCK_EVERYTHING;
    return normalize(declaredLockSet(definition, call.input, context), context) ?? LOCK_EVERYTHING;
  } catch (error) {
    logger.debug(`lock set of ${call.name} (${call.id}) failed, locking everything: ${(error as Error)?.message ?? error}`);
    return LOCK_EVERYTHING;
  }
}
