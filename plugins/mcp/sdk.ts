/**
 * The one place the MCP SDK is imported, always dynamically: loading the plugin (every start,
 * `--help` included) costs nothing until a server is actually contacted.
 */
import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig, StdioServerConfig } from './schema.js';

export type { Client, Transport };

/** A new client that announces itself as assistant. */
export async function createClient(version: string, options: ClientOptions): Promise<Client> {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  return new Client({ name: 'assistant', version }, options);
}

/** A stdio transport whose stderr is piped to us (a server's log must not scribble over the terminal UI). */
export async function stdioTransport(config: StdioServerConfig, cwd: string) {
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  return new StdioClientTransport({ command: config.command, args: config.args ?? [], env: config.env, cwd, stderr: 'pipe' });
}

/** A streamable HTTP or legacy SSE transport with the configured headers on every request. */
export async function remoteTransport(config: RemoteServerConfig, type: 'http' | 'sse'): Promise<Transport> {
  const url = new URL(config.url);
  const requestInit = config.headers ? { headers: config.headers } : undefined;
  if (type === 'sse') {
    const { SSEClientTransport } = await import('@modelcontextprotocol/sdk/client/sse.js');
    return new SSEClientTransport(url, { requestInit });
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return new StreamableHTTPClientTransport(url, { requestInit });
}

/** True for the SDK's "the connection is gone" error (`ErrorCode.ConnectionClosed`). */
export function isConnectionClosed(error: unknown): boolean {
  return (error as { code?: unknown })?.code === -32000;
}

/** True for the SDK's request timeout (`ErrorCode.RequestTimeout`). */
export function isRequestTimeout(error: unknown): boolean {
  return (error as { code?: unknown })?.code === -32001;
}
