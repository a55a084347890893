import { createHash } from 'node:crypto';
import { MCP_SERVER_NAME, parseMcpToolName } from '../../core/index.js';

/** Both providers' rule for tool names. */
const MAX = 64;

/** A server name: see MCP_SERVER_NAME in core (no `__`, so a tool name splits into one (server, tool) pair). */
export const SERVER_NAME = MCP_SERVER_NAME;

/** Why a server name cannot be used, or undefined when it can. */
export function serverNameProblem(name: string): string | undefined {
  if (SERVER_NAME.test(name)) return undefined;
  return `"${name}" is not a valid MCP server name: use letters, digits, "-" and single "_" between them (no "__", no "_" at either end, at most 40 characters, so a long tool name is cut after it), since tool names are mcp__<server>__<tool>`;
}

/** The (server, tool) pair of a qualified tool name, or undefined when it is not one. */
export const parseToolName = parseMcpToolName;

/** Replaces anything providers refuse in a name with `_`. */
export function sanitize(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 6);

/** `mcp__<server>__<tool>`, cut to 64 characters with a hash of the full name when it is longer. */
export function qualifiedName(server: string, tool: string): string {
  const name = `mcp__${sanitize(server)}__${sanitize(tool)}`;
  if (name.length <= MAX) return name;
  const suffix = `_${shortHash(`${server}\0${tool}`)}`;
  return name.slice(0, MAX - suffix.length) + suffix;
}

/**
 * Gives each of a server's tools a unique name: sanitizing can make two names equal (`a.b` and
 * `a_b`) and another plugin may own a name already. The same list always gets the same names; a
 * clash gets a suffix derived from the original name.
 */
export function assignNames(server: string, tools: readonly string[], taken: (name: string) => boolean): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  // A tool whose name needs no change keeps it; the others are named after them, in sorted order.
  const clean = (tool: string) => (sanitize(tool) === tool ? 0 : 1);
  for (const tool of [...tools].sort((a, b) => clean(a) - clean(b) || (a < b ? -1 : a > b ? 1 : 0))) {
    let name = qualifiedName(server, tool);
    for (let attempt = 0; used.has(name) || taken(name); attempt++) {
      const suffix = `_${shortHash(`${server}\0${tool}\0${attempt}`)}`;
      name = qualifiedName(server, tool).slice(0, MAX - suffix.length) + suffix;
    }
    used.add(name);
    names.set(tool, name);
  }
  return names;
}

/** The prefix every tool of a server shares (what a rule like `mcp__github__*` matches). */
export function toolPrefix(server: string): string {
  return `mcp__${sanitize(server)}__`;
}
