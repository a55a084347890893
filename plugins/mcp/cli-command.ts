import { lazyImport, type CliCommand } from '../../core/index.js';
import type { CliDeps } from './cli.js';
import { serveCommand } from './serve/command.js';

/** The subcommands' bodies (and through them the MCP SDK), imported when one runs. */
const actions = lazyImport('mcp', 'mcp subcommands', () => import('./cli.js'));

/** `assistant mcp list | add | remove | serve`. */
export function mcpCommand(deps: CliDeps): CliCommand {
  return {
    name: 'mcp',
    description: 'list, add or remove MCP servers, or serve the built-in tools over MCP',
    subcommands: [
      {
        name: 'list',
        description: 'connect to each configured MCP server and show its status and tool count',
        options: [{ flags: '--json', description: 'machine-readable output' }],
        action: async (_args, options) => (await actions()).list(deps, Boolean(options.json)),
      },
      {
        name: 'add',
        description: "add a server to the project's config: mcp add <name> -- <command> [args...], or mcp add --transport http <name> <url>",
        arguments: '<name> [target...]',
        options: [
          { flags: '-t, --transport <type>', description: 'stdio (default), http (streamable HTTP) or sse (legacy)' },
          { flags: '-e, --env <KEY=VALUE...>', description: 'environment of a stdio server (${VAR} is kept for expansion at start)' },
          { flags: '-H, --header <header...>', description: 'HTTP header of an http/sse server, "Name: value"' },
        ],
        action: async ([name, ...target], options) => (await actions()).add(deps, name!, target, options),
      },
      {
        name: 'remove',
        description: "remove a server from the project's config (or its .mcp.json)",
        arguments: '<name>',
        action: async ([name]) => (await actions()).remove(deps, name!),
      },
      serveCommand(deps),
    ],
  };
}
