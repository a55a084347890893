import { definePlugin, lazyImport, type OriginEvent, type UserMessage } from '../../core/index.js';
import { mcpCommand } from './cli-command.js';
import { listServers, MCP_JSON } from './config.js';
import type { McpManager } from './manager.js';
import { serversSchema, type ServerConfig } from './schema.js';
import { MCP_ERRORS } from './errors.js';

const VERSION = '1.0.0';

/** The client side (connections, the MCP SDK, resources, status rows), imported only when a server is configured or `/mcp` runs. */
const client = lazyImport('mcp', 'MCP client', () => import('./client.js'));

const textOf = (message: UserMessage) => message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');

/**
 * MCP client: the servers under `mcpServers` (and in the project's `.mcp.json`) are connected when
 * the session starts, their tools join the registry as `mcp__<server>__<tool>` and run through the
 * one tool pipeline (permission included), their resources can be attached with `@server:uri`, and
 * their prompts become `/mcp__<server>__<prompt>` commands. Nothing is imported or started before
 * the session starts, and with no server configured the client code is never imported, so
 * `--help`, `--version`, other commands and server-less sessions pay nothing for it.
 */
export default definePlugin<Record<string, ServerConfig>>({
  name: 'mcp',
  version: VERSION,
  errors: MCP_ERRORS,
  configKey: 'mcpServers',
  optionsSchema: serversSchema,
  apply(kernel, options, { logger }) {
    // Its servers' commands run at the next start: rewriting it runs code outside any sandbox.
    kernel.controlFiles.declare({ path: MCP_JSON, why: 'MCP servers the agent starts (.mcp.json)', declaredBy: 'mcp' });
    let manager: McpManager | undefined;
    /** Start-up ran and found no server and no problem to report. */
    let noServers = false;
    const servers = () => listServers(kernel, options);
    const emit = (event: OriginEvent) => {
      try {
        kernel.hooks.event.call(event);
      } catch (error) {
        logger.error(`an event observer failed: ${(error as Error)?.message ?? error}`);
      }
    };
    const start = async () => {
      const list = servers();
      if (!list.servers.length && !list.problems.length) return void (noServers = true);
      const { McpManager } = await client();
      manager ??= new McpManager(list, { projectRoot: kernel.projectRoot, env: process.env, logger, version: VERSION, tools: kernel.tools, commands: kernel.commands, emit });
      await manager.start();
    };

    // Start-up waits for every server (in parallel), each at most its startupTimeoutMs, so the
    // first request already offers their tools; a failure only costs that server's tools.
    kernel.hooks.registerTools.tapPromise('mcp', start);

    // Failures found while starting are reported when observers (the UI, headless output) listen.
    kernel.hooks.turnStart.tapPromise('mcp', async (turn) => {
      if (!turn.agentId) manager?.flushNotices(turn.sessionId);
    });

    kernel.hooks.userPrompt.tapPromise('mcp', async (message, turn) => {
      if (!manager || (message.meta?.origin && message.meta.origin !== 'user')) return message;
      const text = textOf(message);
      if (!text.includes('@')) return message;
      const found = manager;
      const { attachResources } = await client();
      return attachResources(message, text, (name) => found.find(name), (problem) =>
        emit({ type: 'notice', level: 'warn', message: problem, code: 'ASSISTANT_MCP_REQUEST_FAILED', sessionId: turn.sessionId }),
      );
    });

    kernel.hooks.shutdown.tapPromise('mcp', async () => {
      await manager?.close();
    });

    kernel.hooks.commands.tap('mcp', (registry) => {
      registry.addCli(mcpCommand({ kernel, logger, version: VERSION, servers }));
      registry.addSlash({
        name: 'mcp',
        description: 'MCP servers of this session: status and tool count',
        run: async () => {
          if (!manager && !noServers) return 'MCP servers start with the session.';
          const { formatRows, serverRow } = await client();
          return formatRows(manager ? manager.connections.map((c) => serverRow(c, kernel.projectRoot)) : []);
        },
      });
    });
  },
});
