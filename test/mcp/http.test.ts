// Remote servers: streamable HTTP and legacy SSE, started by the test on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, firstTurn, mcpKernel, notices, textOf } from './support.js';
import { startHttpMcp, type HttpMcp } from './http-server.js';

let http: HttpMcp;
beforeAll(async () => {
  process.env.MCP_TEST_HTTP_TOKEN = 'token-from-env';
  http = await startHttpMcp({ authorization: 'Bearer token-from-env' });
});
afterAll(async () => {
  delete process.env.MCP_TEST_HTTP_TOKEN;
  await http?.close();
});

describe('remote MCP servers', () => {
  it('calls tools over streamable HTTP with headers expanded from the environment', async () => {
    const { kernel, events } = await mcpKernel({
      mcpServers: { remote: { type: 'http', url: `${http.url}/mcp`, headers: { Authorization: 'Bearer ${MCP_TEST_HTTP_TOKEN}' } } },
    });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(notices(events)).toEqual([]);
      expect(kernel.tools.get('mcp__remote__ok')).toBeDefined();
      expect(textOf(await call(kernel, 'mcp__remote__ok', { text: 'over http' }))).toBe('ok: over http');
      expect(http.requests.filter((r) => r.startsWith('POST /mcp')).every((r) => r.endsWith('Bearer token-from-env'))).toBe(true);
    } finally {
      await kernel.shutdown();
    }
  });

  it('takes a url without a type as streamable HTTP', async () => {
    const { kernel } = await mcpKernel({ mcpServers: { remote: { url: `${http.url}/mcp`, headers: { Authorization: 'Bearer token-from-env' } } } });
    try {
      await kernel.start();
      expect(textOf(await call(kernel, 'mcp__remote__ok', { text: 'implicit' }))).toBe('ok: implicit');
    } finally {
      await kernel.shutdown();
    }
  });

  it('speaks the legacy SSE transport', async () => {
    const { kernel } = await mcpKernel({ mcpServers: { old: { type: 'sse', url: `${http.url}/sse`, headers: { Authorization: 'Bearer token-from-env' } } } });
    try {
      await kernel.start();
      expect(textOf(await call(kernel, 'mcp__old__ok', { text: 'over sse' }))).toBe('ok: over sse');
    } finally {
      await kernel.shutdown();
    }
  });

  it('reports a server that refuses the credentials, and goes on', async () => {
    const { kernel, events } = await mcpKernel({ mcpServers: { remote: { type: 'http', url: `${http.url}/mcp`, headers: { Authorization: 'Bearer wrong' } } } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(notices(events)).toEqual([expect.objectContaining({ code: 'ASSISTANT_MCP_CONNECT_FAILED', message: expect.stringMatching(/"remote" could not be started.*401/) })]);
      expect(kernel.tools.list().some((t) => t.name.startsWith('mcp__remote__'))).toBe(false);
    } finally {
      await kernel.shutdown();
    }
  });
});
