import { declaredPaths, type LockContext, type ToolDefinition } from '../../core/index.js';

/** What one call may write, as its tool declares it. */
export interface WriteTargets {
  /** Files it writes (absolute). */
  files: string[];
  /** Effects no snapshot covers, for people (the command it runs); absent when there are none. */
  untracked?: string;
}

/**
 * The files a call writes, from the tool's one declaration (its lock set), and whether it has
 * effects beyond them: a command it runs, or writes it declares as "everything" (`*`, `~` paths).
 */
export function writeTargets(definition: ToolDefinition<any>, input: Record<string, unknown>, context: LockContext): WriteTargets {
  const { writes } = declaredPaths(definition, input, context);
  let command: unknown;
  try {
    command = definition.risk.command?.(input);
  } catch {
    command = undefined;
  }
  let unbounded = definition.access === 'write';
  if (typeof definition.access === 'function') {
    try {
      const declared = definition.access(input, context)?.writes;
      unbounded = !Array.isArray(declared) || declared.some((k) => k === '*' || (typeof k === 'string' && k.startsWith('~')));
    } catch {
      unbounded = true;
    }
  }
  const label = typeof command === 'string' ? command : summaryOf(definition, input);
  return { files: writes, ...(typeof command === 'string' || unbounded ? { untracked: label } : {}) };
}

function summaryOf(definition: ToolDefinition<any>, input: Record<string, unknown>): string {
  try {
    return definition.summarize?.(input) || 'its changes are not tracked';
  } catch {
    return 'its changes are not tracked';
  }
}
