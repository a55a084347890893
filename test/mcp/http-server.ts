// The fixture MCP server over HTTP on 127.0.0.1, with the SDK's own server transports:
// streamable HTTP at /mcp (one session per client) and the legacy SSE transport at /sse + /messages.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createFixtureServer } from './fixtures/fixture-server.mjs';

export interface HttpMcp {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  /** Requests seen, as `METHOD path authorization`. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts the server; with `authorization`, requests without exactly that header get a 401. */
export async function startHttpMcp(options: { authorization?: string } = {}): Promise<HttpMcp> {
  const streams = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  const requests: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${path.pathname} ${req.headers.authorization ?? '-'}`);
    if (options.authorization && req.headers.authorization !== options.authorization) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
      return;
    }
    if (path.pathname === '/mcp') {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? streams.get(id) : undefined;
      if (!transport) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => void streams.set(sessionId, created),
        });
        await createFixtureServer('http-fixture').connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    } else if (path.pathname === '/sse' && req.method === 'GET') {
      const transport = new SSEServerTransport('/messages', res);
      sse.set(transport.sessionId, transport);
      await createFixtureServer('sse-fixture').connect(transport);
    } else if (path.pathname === '/messages' && req.method === 'POST') {
      const transport = sse.get(path.searchParams.get('sessionId') ?? '');
      if (transport) await transport.handlePostMessage(req, res);
      else res.writeHead(404).end();
    } else res.writeHead(404).end();
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String((error as Error)?.message ?? error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
