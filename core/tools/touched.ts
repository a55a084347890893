import { isAbsolute, resolve } from 'node:path';
import { declaredLists, declaredLockSet, isResourceKey, resourceIsAFile } from './declared.js';
import type { ToolCallPart } from '../types/messages.js';
import type { LockContext, ToolCategory, ToolDefinition } from '../types/tools.js';

/** What one call touches, as the permission engine must see it. */
export interface Touched {
  /** The file paths the tool's lock set names, reads then writes, as declared; malformed entries are passed on as given, so a policy refuses them. */
  paths: string[];
  /** The call may touch files `paths` does not name (see PermissionRequest.unbounded). */
  unbounded?: 'read' | 'write';
  /** The tool's category, made `other` when a tool that claims to only read (or plan, or fetch, or run a command) declares writes to files. */
  category: ToolCategory;
  /** The shell command, when the tool runs one. */
  command?: string;
}

/** Categories whose paths a policy already judges as writes. */
const WRITING: ReadonlySet<ToolCategory> = new Set(['edit', 'other']);

/**
 * Derives what a call touches from its tool's one declaration, its lock set (`access`), failing
 * closed: `*` (everything) is accounted for by the shell command when the tool gives one, and is
 * otherwise `unbounded`; a declaration that throws or is not a lock set is an unbounded write. A
 * relative path is taken from the project root, as tools and lock sets take it: when the agent
 * works in another directory it is made absolute, since policies take relative paths from `cwd`.
 */
export function touchedBy(definition: ToolDefinition<any>, call: ToolCallPart, context: LockContext): Touched {
  const { risk } = definition;
  let command: unknown;
  let commandFailed = false;
  try {
    command = risk.command?.(call.input);
  } catch {
    commandFailed = true;
  }
  let lists: { reads: unknown[]; writes: unknown[] } | undefined;
  try {
    lists = declaredLists(declaredLockSet(definition, call.input, context));
  } catch {
    lists = undefined;
  }
  const paths: unknown[] = [];
  let unbounded: Touched['unbounded'] = lists && !commandFailed ? undefined : 'write';
  let writesFiles = false;
  const elsewhere = resolve(context.cwd) !== resolve(context.projectRoot);
  const take = (keys: unknown[], kind: 'read' | 'write') => {
    for (const key of keys) {
      if (key === '*') {
        // A command is parsed for what it touches; without one, "everything" is unknown ground.
        if (typeof command !== 'string') unbounded = kind === 'write' || unbounded === 'write' ? 'write' : 'read';
        continue;
      }
      if (typeof key === 'string' && isResourceKey(key) && !resourceIsAFile(key, context.projectRoot)) continue;
      paths.push(typeof key === 'string' && elsewhere && !isAbsolute(key) && !key.startsWith('~') && key !== '' ? resolve(context.projectRoot, key) : key);
      if (kind === 'write') writesFiles = true;
    }
  };
  take(lists?.reads ?? [], 'read');
  take(lists?.writes ?? [], 'write');
  const writes = writesFiles || unbounded === 'write';
  return {
    paths: paths as string[],
    ...(unbounded ? { unbounded } : {}),
    category: writes && !WRITING.has(risk.category) ? 'other' : risk.category,
    ...(command !== undefined ? { command: command as string } : {}),
  };
}
