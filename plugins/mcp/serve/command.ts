import { createKernel, type CliCommand, type Kernel, type Logger, type ResolvedConfig } from '../../../core/index.js';
import { serveTools } from './server.js';

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
 * `assistant mcp serve`: the CLI's kernel is headless (stdin is the client's pipe), so the tools are
 * served from a second kernel on the same configuration that is not: its `ask` decisions reach the
 * `approval` hook, where the server asks the client's user (elicitation) or denies with the rule to add.
 */
export function serveCommand(deps: { kernel: Kernel; logger: Logger; version: string }): CliCommand {
  return {
    name: 'serve',
    description: 'offer the built-in tools to another agent as an MCP server on stdin/stdout (every call through the permission engine and sandbox)',
    action: async () => {
      const served = await createKernel({ config: servedConfig(deps.kernel.resolvedConfig), headless: false, logLevel: deps.kernel.logger.level, logFile: process.env.ASSISTANT_LOG_FILE });
      try {
        await served.start();
        await serveTools({ kernel: served, mode: served.config.permissions?.mode ?? 'default', logger: deps.logger, version: deps.version });
        return 0;
      } finally {
        await served.shutdown();
      }
    },
  };
}
