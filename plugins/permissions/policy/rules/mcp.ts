import picomatch from 'picomatch';
import { parseMcpToolName } from '../../../../core/index.js';
import type { RuleKind } from './parse.js';

/** The (server, tool) pair of an MCP tool name (core's parse: the first `__` after `mcp__` ends the server's name). */
export const mcpToolParts = parseMcpToolName;

/**
 * The tool-name matcher of a rule naming MCP tools (`mcp__github__*`, `mcp__github`, `mcp__git*__read_*`):
 * the rule's server part is matched against the tool's server and its tool part against the tool,
 * never the whole name as a string, so `mcp__github__*` cannot match a tool of a server named
 * `github__evil`. deny and ask rules also match by plain text (a name that does not parse is still
 * caught): a rule that narrows may match too much, one that widens never.
 */
export function mcpRuleMatcher(ruleTool: string, kind: RuleKind): ((name: string) => boolean) | undefined {
  if (!ruleTool.startsWith('mcp__')) return undefined;
  const rest = ruleTool.slice(5);
  const cut = rest.indexOf('__');
  const serverPattern = cut < 0 ? rest : rest.slice(0, cut);
  const toolPattern = cut < 0 ? '*' : rest.slice(cut + 2);
  if (!serverPattern || !toolPattern) return () => false;
  const server = picomatch(serverPattern);
  const tool = picomatch(toolPattern, { dot: true });
  const parsed = (name: string) => {
    const parts = mcpToolParts(name);
    return !!parts && server(parts.server) && tool(parts.tool);
  };
  if (kind === 'allow') return parsed;
  const text = ruleTool.includes('*') ? picomatch(ruleTool, { dot: true }) : (name: string) => name === ruleTool || name.startsWith(`${ruleTool}__`);
  return (name) => parsed(name) || text(name);
}
