import { lazyImport, type CliCommand, type Kernel, type Logger, type ResolvedConfig } from '../../../core/index.js';
import { kernelForSurface, setSurface } from '../../../core/kits/agent/index.js';

/** The MCP server (and its SDK), imported when `mcp serve` runs. */
const server = lazyImport('mcp', 'MCP server', () => import('./server.js'));

/**
 * The configuration of the served kernel: the same project, plugins and policy, minus this plugin's
 * own MCP servers: their tools are not offered (no proxying), and a project whose `.mcp.json` runs
 * `assistant mcp serve` must not start itself again and again.
 */
function servedConfig(config: ResolvedConfig): ResolvedConfig {
  const { mcpServers: _servers, ...values } = config.values as Record<string, unknown>;
  return { ...config, values: values as ResolvedConfig['values'], disabled: [...new Set([...config.disabled, 'mcp'])] };
}

/**
 * `assistant mcp serve`: the tools are served from a surface's kernel (kernelForSurface: not
 * headless, though stdin is the client's pipe), so its `ask` decisions reach the `approval` hook,
 * where the server asks the client's user (elicitation) or denies with the rule to add.
 */
export function serveCommand(deps: { kernel: Kernel; logger: Logger; version: string }): CliCommand {
  return {
    name: 'serve',
    description: 'offer the built-in tools to another agent as an MCP server on stdin/stdout (every call through the permission engine and sandbox)',
    action: async () => {
      setSurface('mcp');
      // No model is needed to serve tools: a missing provider key must not stop it.
      const served = await kernelForSurface(deps.kernel, { config: servedConfig(deps.kernel.resolvedConfig), checkSelections: false });
      try {
        await served.start();
        const { serveTools } = await server();
        await serveTools({ kernel: served, mode: served.config.permissions?.mode ?? 'default', logger: deps.logger, version: deps.version });
        return 0;
      } finally {
        await served.shutdown();
      }
    },
  };
}
