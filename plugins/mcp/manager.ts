import type { CommandRegistry, Logger, OriginEvent, ToolRegistry } from '../../core/index.js';
import type { ServerList } from './config.js';
import { McpConnection, type ServerFailure } from './connection.js';
import { assignNames, sanitize } from './names.js';
import { promptCommand } from './prompts.js';
import { callable, toolDefinition } from './tools.js';

/** What the manager needs from the kernel. */
export interface ManagerDeps {
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  version: string;
  tools: ToolRegistry;
  commands: CommandRegistry;
  /** Sends an event to observers (the UI, headless output). */
  emit(event: OriginEvent): void;
}

/**
 * The session's MCP servers: connects them all in parallel, keeps each server's tools registered
 * under `mcp__<server>__<tool>` (re-registered on `list_changed`, removed when the server goes
 * away), adds its prompts as slash commands, and reports each failure once.
 */
export class McpManager {
  readonly connections: McpConnection[];
  /** Qualified tool names registered per server. */
  private readonly registered = new Map<McpConnection, string[]>();
  /** Notices waiting until observers listen (the first turn); after that they go out at once. */
  private pending: OriginEvent[] | undefined = [];
  private started: Promise<void> | undefined;

  constructor(
    list: ServerList,
    private readonly deps: ManagerDeps,
  ) {
    const events = { changed: (c: McpConnection) => this.onChanged(c), lost: (c: McpConnection) => this.onLost(c) };
    this.connections = list.servers.map((entry) => new McpConnection(entry, { projectRoot: deps.projectRoot, env: deps.env, logger: deps.logger, version: deps.version, events }));
    for (const problem of list.problems) this.notice({ code: 'ASSISTANT_MCP_CONFIG_INVALID', message: problem });
  }

  /** Connects every enabled server (in parallel, each within its start-up deadline); failures are reported, never thrown. */
  start(): Promise<void> {
    this.started ??= Promise.all(
      this.connections.map(async (connection) => {
        await connection.connect();
        if (connection.status === 'connected') {
          this.deps.logger.info(`${connection.name}: connected (${connection.tools.length} tools, ${connection.prompts.length} prompts)`);
          this.sync(connection);
        } else if (connection.failure) this.notice(connection.failure);
      }),
    ).then(() => undefined);
    return this.started;
  }

  /** The server a mention or command names (its name as in tool names). */
  find(name: string): McpConnection | undefined {
    return this.connections.find((c) => sanitize(c.name) === name || c.name === name);
  }

  /** Observers listen from now on: queued notices go out. */
  flushNotices(sessionId?: string): void {
    const queued = this.pending;
    this.pending = undefined;
    for (const event of queued ?? []) this.deps.emit({ ...event, sessionId });
  }

  /** Reports a problem once, as a warning notice (or news, as an info notice). */
  notice(failure: ServerFailure | { message: string; code?: undefined }, level: 'info' | 'warn' = 'warn'): void {
    this.deps.logger.debug(`${failure.code ?? level}: ${failure.message}`);
    const event: OriginEvent = { type: 'notice', level, message: failure.message, ...(failure.code ? { code: failure.code } : {}) };
    if (this.pending) this.pending.push(event);
    else this.deps.emit(event);
  }

  /** Closes every client; stdio servers' processes end. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
    for (const connection of this.connections) this.unregister(connection);
  }

  /** Registers the server's current tools (replacing the previous set) and adds commands for new prompts. */
  private sync(connection: McpConnection): void {
    const { tools, commands } = this.deps;
    this.unregister(connection);
    const offered = connection.tools.filter((tool) => {
      if (callable(tool)) return true;
      this.deps.logger.debug(`${connection.name}: ${tool.name} can only run as a task; not offered`);
      return false;
    });
    const names = assignNames(connection.name, offered.map((t) => t.name), (name) => tools.get(name) !== undefined);
    const added: string[] = [];
    for (const tool of offered) {
      const name = names.get(tool.name)!;
      tools.register(toolDefinition(connection, tool, name));
      added.push(name);
    }
    this.registered.set(connection, added.sort());
    for (const prompt of connection.prompts) {
      const command = promptCommand(connection, prompt);
      if (!commands.slash(command.name)) commands.addSlash(command);
    }
  }

  private unregister(connection: McpConnection): void {
    for (const name of this.registered.get(connection) ?? []) this.deps.tools.unregister(name);
    this.registered.delete(connection);
  }

  private onChanged(connection: McpConnection): void {
    const before = this.registered.get(connection)?.join('\n');
    this.sync(connection);
    // Servers often announce a change that changes nothing (tools set up again after `initialize`).
    if (this.registered.get(connection)?.join('\n') === before) return;
    this.notice({ message: `the MCP server "${connection.name}" changed its tools (now ${this.registered.get(connection)!.length})` }, 'info');
  }

  private onLost(connection: McpConnection): void {
    this.unregister(connection);
    if (connection.failure) this.notice({ code: connection.failure.code, message: `${connection.failure.message}; its tools are no longer available` });
  }
}
