/**
 * MCP tools are named `mcp__<server>__<tool>`. A server name has letters, digits, `-` and single
 * `_` between them (no `__`, no `_` at either end, at most 40 characters), so a qualified name splits
 * at its first `__` after `mcp__` into exactly one (server, tool) pair: a server named
 * `github__evil` would otherwise pass for `github`. The MCP client refuses other names; policies
 * match rules on the parsed pair.
 */
export const MCP_SERVER_NAME = /^(?=.{1,40}$)[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/** The (server, tool) pair of an MCP tool name, or undefined when the name is not one. */
export function parseMcpToolName(name: string): { server: string; tool: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const cut = rest.indexOf('__');
  if (cut <= 0) return undefined;
  const server = rest.slice(0, cut);
  const tool = rest.slice(cut + 2);
  return MCP_SERVER_NAME.test(server) && tool ? { server, tool } : undefined;
}
