import { lstatSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { LockContext, LockSet, ToolDefinition } from '../types/tools.js';

/**
 * A key naming a resource that is not a file: `@` and a plain name. No path separator and no
 * leading dot, so a path the model gave (`@x/../../etc/passwd`, `@..`) is never taken for one.
 */
const RESOURCE_KEY = /^@[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** True when `key` names a resource that is not a file (`@todos`, `@mcp:github`). */
export function isResourceKey(key: string): boolean {
  return RESOURCE_KEY.test(key);
}

/**
 * The lock set a tool declares for one input, keys as the tool wrote them (paths not yet resolved):
 * `access: 'read'` reads everything, `'write'` writes everything, a function decides per input.
 * Throws what the tool's function throws; the value is unchecked (it comes from plugin code).
 */
export function declaredLockSet(definition: ToolDefinition<any>, input: Record<string, unknown>, context: LockContext): unknown {
  const { access } = definition;
  if (access === 'read') return { reads: ['*'], writes: [] };
  if (access === 'write') return { reads: [], writes: ['*'] };
  return access(input, context);
}

/** The `reads` and `writes` lists of a declared lock set, or undefined when it is not shaped like one (a missing list is empty). */
export function declaredLists(declared: unknown): { reads: unknown[]; writes: unknown[] } | undefined {
  if (!declared || typeof declared !== 'object') return undefined;
  const { reads = [], writes = [] } = declared as Partial<Record<keyof LockSet, unknown>>;
  return Array.isArray(reads) && Array.isArray(writes) ? { reads, writes } : undefined;
}

/**
 * True when a `@name` key is really a file: the project root holds an entry of that name (which
 * the tool, taking it as a relative path, would open), so the permission engine must see it.
 */
export function resourceIsAFile(key: string, projectRoot: string): boolean {
  try {
    lstatSync(join(projectRoot, key));
    return true;
  } catch {
    return false;
  }
}

/**
 * The file paths one call names in its tool's declaration, for plugins that follow what calls
 * touch (directory memory files, superseded reads): relative ones taken from the project root,
 * `~` and everything (`*`) and non-file resources left out. Empty when the declaration fails.
 */
export function declaredPaths(definition: ToolDefinition<any>, input: Record<string, unknown>, context: LockContext): { reads: string[]; writes: string[] } {
  let lists: { reads: unknown[]; writes: unknown[] } | undefined;
  try {
    lists = declaredLists(declaredLockSet(definition, input, context));
  } catch {
    lists = undefined;
  }
  const files = (keys: unknown[]) =>
    keys
      .filter((k): k is string => typeof k === 'string' && k !== '' && k !== '*' && !k.startsWith('~') && !(isResourceKey(k) && !resourceIsAFile(k, context.projectRoot)))
      .map((k) => (isAbsolute(k) ? resolve(k) : resolve(context.projectRoot, k)));
  return { reads: files(lists?.reads ?? []), writes: files(lists?.writes ?? []) };
}
