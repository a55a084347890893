/** The tool that starts sub-agents: a sub-agent gets it only when its type names it exactly. */
export const TASK_TOOL = 'Task';

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/**
 * Which tools a type's `tools` list admits: exact names, and `*` patterns such as `mcp__github__*`
 * (`*` alone: every tool). A pattern never admits `Task`, so recursion is always a deliberate choice.
 */
export function toolMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set(patterns.filter((p) => !p.includes('*')));
  const globs = patterns.filter((p) => p.includes('*')).map((p) => new RegExp(`^${p.split('*').map(escape).join('.*')}$`));
  return (name) => exact.has(name) || (name !== TASK_TOOL && globs.some((g) => g.test(name)));
}
