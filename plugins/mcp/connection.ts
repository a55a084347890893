import { isAbsolute, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorCode, Logger } from '../../core/index.js';
import type { ServerEntry } from './config.js';
import { expandServer } from './expand.js';
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, isRemote, transportOf, type ServerConfig } from './schema.js';
import { createClient, isConnectionClosed, isRequestTimeout, remoteTransport, stdioTransport, type Client, type Transport } from './sdk.js';

/** Where a server is in its life. */
export type ServerStatus = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed' | 'disabled';

/** What a connection tells its owner. */
export interface ConnectionEvents {
  /** The server's tools or prompts are known or changed. */
  changed(connection: McpConnection): void;
  /** A connected server went away (exited, closed the connection). */
  lost(connection: McpConnection): void;
}

/** What a connection needs from its surroundings. */
export interface ConnectionOptions {
  projectRoot: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** assistant's version, sent in `initialize`. */
  version: string;
  events?: ConnectionEvents;
}

/** Lines of a server's stderr kept to explain a failure. */
const STDERR_LINES = 20;

/** A failure with the stable code it is reported under. */
export interface ServerFailure {
  code: ErrorCode;
  message: string;
}

/** Thrown when a step does not finish in time. */
class Timeout extends Error {}

/**
 * One MCP server: connected on demand with a deadline for start-up and `initialize`, its tools and
 * prompts listed (and re-listed on `list_changed`), calls forwarded, and its process closed.
 * `connect()` never throws: a failure is kept as `failure` and the status says `failed`.
 */
export class McpConnection {
  status: ServerStatus;
  failure: ServerFailure | undefined;
  tools: Tool[] = [];
  prompts: Prompt[] = [];
  private client: Client | undefined;
  private transport: Transport | undefined;
  private connecting: Promise<void> | undefined;
  private closing = false;
  /** Start-up gave up (timeout) while the handshake was still running. */
  private abandoned = false;
  private readonly stderrTail: string[] = [];
  private readonly changedWhileStarting = new Set<'tools' | 'prompts'>();

  constructor(
    readonly entry: ServerEntry,
    private readonly options: ConnectionOptions,
  ) {
    this.status = entry.config.disabled ? 'disabled' : 'idle';
    if (entry.problem) {
      this.status = 'failed';
      this.failure = { code: entry.problemCode ?? 'ASSISTANT_MCP_CONFIG_INVALID', message: entry.problem };
    }
  }

  get name(): string {
    return this.entry.name;
  }

  get transportType(): 'stdio' | 'http' | 'sse' {
    return transportOf(this.entry.config);
  }

  get startupTimeoutMs(): number {
    return this.entry.config.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  }

  get toolTimeoutMs(): number {
    return this.entry.config.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  }

  /** True when the server offers resources (`@server:uri` mentions). */
  get hasResources(): boolean {
    return Boolean(this.client?.getServerCapabilities()?.resources);
  }

  /** Connects once; later calls wait for the first. */
  connect(): Promise<void> {
    if (this.status !== 'idle') return this.connecting ?? Promise.resolve();
    this.status = 'connecting';
    this.connecting = this.open().then(
      () => {
        this.status = 'connected';
        // A change announced while the first lists were being read may not be in them.
        for (const kind of this.changedWhileStarting) void this.refresh(kind);
        this.changedWhileStarting.clear();
      },
      (error: unknown) => this.fail(this.describeStartFailure(error)),
    );
    return this.connecting;
  }

  private async open(): Promise<void> {
    const { config, missing } = expandServer(this.entry.config, this.options.env);
    if (missing.length) {
      const list = missing.map((m) => `${this.entry.pointer}${m.pointer}: \${${m.name}} is not set`).join('; ');
      throw Object.assign(new Error(`${this.entry.file}: ${list}; export it or write \${NAME:-default}`), { code: 'ASSISTANT_MCP_CONFIG_INVALID' });
    }
    const deadline = this.startupTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Timeout()), deadline);
    });
    try {
      await Promise.race([this.handshake(config, deadline), expired]);
    } catch (error) {
      // Whatever was started (a child process, an HTTP session) goes with the failure, and a
      // handshake still under way stops at its next step.
      this.abandoned = true;
      await this.dispose();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  private async handshake(config: ServerConfig, deadline: number): Promise<void> {
    const transport = await this.createTransport(config);
    if (this.abandoned) return void (await transport.close());
    this.transport = transport;
    const client = await createClient(this.options.version, {
      capabilities: {},
      // Our own refresh (all pages) runs when the server says a list changed.
      listChanged: {
        tools: { autoRefresh: false, debounceMs: 50, onChanged: () => void this.refresh('tools') },
        prompts: { autoRefresh: false, debounceMs: 50, onChanged: () => void this.refresh('prompts') },
      },
    });
    if (this.abandoned) return;
    this.client = client;
    client.onerror = (error) => this.options.logger.debug(`${this.name}: ${error.message}`);
    await client.connect(transport, { timeout: deadline });
    client.onclose = () => this.onClosed();
    await this.listAll(deadline);
  }

  private async createTransport(config: ServerConfig): Promise<Transport> {
    if (isRemote(config)) return remoteTransport(config, this.transportType === 'sse' ? 'sse' : 'http');
    const cwd = config.cwd ? (isAbsolute(config.cwd) ? config.cwd : resolve(this.options.projectRoot, config.cwd)) : this.options.projectRoot;
    const transport = await stdioTransport(config, cwd);
    (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => this.keepStderr(chunk.toString('utf8')));
    return transport;
  }

  private keepStderr(text: string): void {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      this.options.logger.debug(`${this.name} stderr: ${line}`);
      this.stderrTail.push(line.trim());
      if (this.stderrTail.length > STDERR_LINES) this.stderrTail.shift();
    }
  }

  /** Lists tools and prompts, following every page. */
  private async listAll(timeout?: number): Promise<void> {
    const capabilities = this.client!.getServerCapabilities() ?? {};
    const [tools, prompts] = await Promise.all([
      capabilities.tools ? this.pages('tools', timeout) : Promise.resolve([]),
      capabilities.prompts ? this.pages('prompts', timeout) : Promise.resolve([]),
    ]);
    this.tools = tools as Tool[];
    this.prompts = prompts as Prompt[];
  }

  private async pages(kind: 'tools' | 'prompts', timeout?: number): Promise<Array<Tool | Prompt>> {
    const client = this.client!;
    const items: Array<Tool | Prompt> = [];
    let cursor: string | undefined;
    do {
      const params = cursor ? { cursor } : undefined;
      const page = kind === 'tools' ? await client.listTools(params, { timeout }) : await client.listPrompts(params, { timeout });
      items.push(...(kind === 'tools' ? (page as { tools: Tool[] }).tools : (page as { prompts: Prompt[] }).prompts));
      cursor = page.nextCursor;
    } while (cursor);
    return items;
  }

  /** Re-lists after a `list_changed` notification; a failed refresh keeps the old list. */
  private async refresh(kind: 'tools' | 'prompts'): Promise<void> {
    if (this.status === 'connecting') this.changedWhileStarting.add(kind);
    if (this.status !== 'connected') return;
    try {
      const items = await this.pages(kind);
      if (kind === 'tools') this.tools = items as Tool[];
      else this.prompts = items as Prompt[];
      this.options.events?.changed(this);
    } catch (error) {
      this.options.logger.warn(`${this.name}: could not refresh the ${kind} list: ${(error as Error).message}`);
    }
  }

  /** Calls a tool; a lost connection or a protocol error is thrown as a coded error. */
  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = this.requireClient();
    try {
      return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.toolTimeoutMs })) as CallToolResult;
    } catch (error) {
      throw this.requestError(error, `calling ${tool}`);
    }
  }

  async getPrompt(prompt: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = this.requireClient();
    try {
      return await client.getPrompt({ name: prompt, arguments: args }, { timeout: this.toolTimeoutMs });
    } catch (error) {
      throw this.requestError(error, `getting the prompt ${prompt}`);
    }
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    const client = this.requireClient();
    try {
      return await client.readResource({ uri }, { timeout: this.toolTimeoutMs });
    } catch (error) {
      throw this.requestError(error, `reading ${uri}`);
    }
  }

  /** Closes the client and its transport (a stdio server's process is ended: stdin closed, then SIGTERM, then SIGKILL). */
  async close(): Promise<void> {
    this.closing = true;
    await this.connecting?.catch(() => undefined);
    if (this.status === 'connected') this.status = 'closed';
    await this.dispose();
  }

  private async dispose(): Promise<void> {
    const { client, transport } = this;
    this.client = undefined;
    this.transport = undefined;
    try {
      if (client) await client.close();
      else await transport?.close();
    } catch (error) {
      this.options.logger.debug(`${this.name}: closing failed: ${(error as Error).message}`);
    }
  }

  private requireClient(): Client {
    if (this.status !== 'connected' || !this.client)
      throw Object.assign(new Error(this.unavailable()), { code: 'ASSISTANT_MCP_SERVER_CLOSED' satisfies ErrorCode });
    return this.client;
  }

  /** Why the server cannot take requests, for an error result. */
  unavailable(): string {
    if (this.status === 'disabled') return `the MCP server "${this.name}" is disabled in ${this.entry.file}`;
    if (this.failure) return `the MCP server "${this.name}" is not available: ${this.failure.message}`;
    return `the MCP server "${this.name}" is not connected`;
  }

  private requestError(error: unknown, doing: string): Error {
    if (this.status !== 'connected' || isConnectionClosed(error))
      return Object.assign(new Error(`the MCP server "${this.name}" went away while ${doing}${this.lastWords()}`), { code: 'ASSISTANT_MCP_SERVER_CLOSED' });
    if (isRequestTimeout(error))
      return Object.assign(new Error(`the MCP server "${this.name}" did not answer ${doing} within ${this.toolTimeoutMs} ms`), { code: 'ASSISTANT_TOOL_TIMEOUT' });
    if ((error as Error)?.name === 'AbortError') return error as Error;
    return Object.assign(new Error(`the MCP server "${this.name}" failed ${doing}: ${(error as Error)?.message ?? error}`), { code: 'ASSISTANT_MCP_REQUEST_FAILED' });
  }

  private onClosed(): void {
    if (this.closing || this.status !== 'connected') return;
    this.fail({ code: 'ASSISTANT_MCP_SERVER_CLOSED', message: `the MCP server "${this.name}" ${this.transportType === 'stdio' ? 'exited' : 'closed the connection'}${this.lastWords()}` });
    void this.dispose();
    this.options.events?.lost(this);
  }

  private fail(failure: ServerFailure): void {
    this.status = 'failed';
    this.failure = failure;
    this.tools = [];
    this.prompts = [];
  }

  private describeStartFailure(error: unknown): ServerFailure {
    const where = `(${this.entry.file}: ${this.entry.pointer})`;
    if ((error as { code?: string })?.code === 'ASSISTANT_MCP_CONFIG_INVALID') return { code: 'ASSISTANT_MCP_CONFIG_INVALID', message: (error as Error).message };
    if (error instanceof Timeout || isRequestTimeout(error))
      return {
        code: 'ASSISTANT_MCP_CONNECT_TIMEOUT',
        message: `the MCP server "${this.name}" did not finish starting within ${this.startupTimeoutMs} ms ${where}; raise startupTimeoutMs if it is just slow${this.lastWords()}`,
      };
    const reason = (error as NodeJS.ErrnoException)?.code === 'ENOENT' && !isRemote(this.entry.config) ? `command not found: ${this.entry.config.command}` : ((error as Error)?.message ?? String(error)) + httpHint(error);
    return { code: 'ASSISTANT_MCP_CONNECT_FAILED', message: `the MCP server "${this.name}" could not be started ${where}: ${reason}${this.lastWords()}` };
  }

  /** The server's last stderr line, which usually says why it stopped. */
  private lastWords(): string {
    const last = this.stderrTail[this.stderrTail.length - 1];
    return last ? ` (its last words: ${last.length > 200 ? last.slice(0, 197) + '...' : last})` : '';
  }
}

/** The HTTP status behind a transport error, with what to do about the usual ones. */
function httpHint(error: unknown): string {
  const status = (error as { code?: unknown })?.code;
  if (typeof status !== 'number' || status < 400 || status > 599) return '';
  if (status === 401 || status === 403) return ` (HTTP ${status}: check the server's headers, e.g. "Authorization": "Bearer \${TOKEN}"; OAuth sign-in is not supported)`;
  return ` (HTTP ${status})`;
}
