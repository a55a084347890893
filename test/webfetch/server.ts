import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A route: answers a request (it may keep the response open). */
export type Route = (req: IncomingMessage, res: ServerResponse, site: Site) => void;

/** A real HTTP server on 127.0.0.1 with routes, counting hits and noting closed connections. */
export interface Site {
  port: number;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** The same server named `localhost`: another host to WebFetch. */
  other: string;
  hits: Map<string, number>;
  /** Paths whose response was cut by the client before it ended. */
  closedEarly: Set<string>;
  close(): Promise<void>;
}

/** Starts the server. */
export async function startSite(routes: Record<string, Route>): Promise<Site> {
  const sockets = new Set<import('node:net').Socket>();
  let site!: Site;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    site.hits.set(path, (site.hits.get(path) ?? 0) + 1);
    res.on('close', () => {
      if (!res.writableFinished) site.closedEarly.add(path);
    });
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/html' });
      return res.end('<html><body><h1>Not here</h1><p>No page at this address.</p></body></html>');
    }
    route(req, res, site);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  site = {
    port,
    base: `http://127.0.0.1:${port}`,
    other: `http://localhost:${port}`,
    hits: new Map(),
    closedEarly: new Set(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return site;
}
