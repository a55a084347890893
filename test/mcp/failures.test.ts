// Servers that crash, hang, cannot start or are misconfigured: each is reported once, its tools
// error cleanly or disappear, and the session goes on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { alive, call, firstTurn, FIXTURE, mcpKernel, nodeServer, notices, textOf } from './support.js';
import { tempDir } from '../support/project.js';

const pidIn = (file: string) => Number(readFileSync(file, 'utf8'));

describe('a server that crashes in the middle of a call', () => {
  it('fails that call cleanly, reports the exit once, removes its tools, and the rest goes on', async () => {
    const pids = tempDir();
    const { kernel, events } = await mcpKernel({
      mcpServers: {
        crashy: nodeServer(FIXTURE, [], { env: { FIXTURE_PID_FILE: join(pids, 'crashy') } }),
        steady: nodeServer(FIXTURE, [], { env: { FIXTURE_PID_FILE: join(pids, 'steady') } }),
      },
    });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(textOf(await call(kernel, 'mcp__crashy__ok', { text: 'before' }))).toBe('ok: before');

      const crashed = await call(kernel, 'mcp__crashy__crash');
      expect(crashed.isError).toBe(true);
      expect(crashed.metadata?.code).toBe('ASSISTANT_MCP_SERVER_CLOSED');
      expect(textOf(crashed)).toMatch(/"crashy" went away while calling crash.*crashing on purpose/);
      expect(alive(pidIn(join(pids, 'crashy')))).toBe(false);

      const reported = notices(events).filter((n) => n.code === 'ASSISTANT_MCP_SERVER_CLOSED');
      expect(reported).toHaveLength(1);
      expect(reported[0]!.message).toMatch(/"crashy" exited .*no longer available/);

      expect(kernel.tools.list().some((t) => t.name.startsWith('mcp__crashy__'))).toBe(false);
      const after = await call(kernel, 'mcp__crashy__ok', { text: 'after' });
      expect(after.metadata?.code).toBe('ASSISTANT_TOOL_UNKNOWN');
      expect(textOf(await call(kernel, 'mcp__steady__ok', { text: 'still here' }))).toBe('ok: still here');
      expect(notices(events).filter((n) => n.code === 'ASSISTANT_MCP_SERVER_CLOSED')).toHaveLength(1);
    } finally {
      await kernel.shutdown();
    }
  });
});

describe('start-up', () => {
  it('gives up on a server that never answers initialize, kills it, and starts without it', async () => {
    const pids = tempDir();
    const { kernel, events } = await mcpKernel({
      mcpServers: {
        silent: nodeServer(FIXTURE, [], { env: { FIXTURE_SILENT: '1', FIXTURE_PID_FILE: join(pids, 'silent') }, startupTimeoutMs: 500 }),
        steady: nodeServer(FIXTURE),
      },
    });
    try {
      await kernel.start();
      expect(alive(pidIn(join(pids, 'silent')))).toBe(false);
      // Reported once, when observers listen (the first turn), not before.
      expect(notices(events)).toEqual([]);
      await firstTurn(kernel);
      await firstTurn(kernel);
      const reported = notices(events);
      expect(reported).toHaveLength(1);
      expect(reported[0]).toMatchObject({ level: 'warn', code: 'ASSISTANT_MCP_CONNECT_TIMEOUT' });
      expect(reported[0]!.message).toMatch(/"silent" did not finish starting within 500 ms \(.*\.assistantrc: \/mcpServers\/silent\)/);
      const names = kernel.tools.list().map((t) => t.name);
      expect(names).toContain('mcp__steady__ok');
      expect(names).toContain('Read');
      expect(names.some((n) => n.startsWith('mcp__silent__'))).toBe(false);
    } finally {
      await kernel.shutdown();
    }
  });

  it('reports a command that does not exist', async () => {
    const { kernel, events } = await mcpKernel({ mcpServers: { ghost: { command: 'assistant-test-no-such-command' } } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(notices(events)).toEqual([
        expect.objectContaining({ code: 'ASSISTANT_MCP_CONNECT_FAILED', message: expect.stringContaining('command not found: assistant-test-no-such-command') }),
      ]);
    } finally {
      await kernel.shutdown();
    }
  });

  it('keeps a disabled server configured but never starts it', async () => {
    const pids = tempDir();
    const { kernel, events } = await mcpKernel({ mcpServers: { off: nodeServer(FIXTURE, [], { env: { FIXTURE_PID_FILE: join(pids, 'off') }, disabled: true }) } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(notices(events)).toEqual([]);
      expect(kernel.tools.list().some((t) => t.name.startsWith('mcp__'))).toBe(false);
      expect(() => readFileSync(join(pids, 'off'))).toThrow();
    } finally {
      await kernel.shutdown();
    }
  });
});

describe('tool calls that go wrong', () => {
  it('reports isError results with their text and a stable code', async () => {
    const { kernel } = await mcpKernel({ mcpServers: { fx: nodeServer(FIXTURE) } });
    try {
      await kernel.start();
      const result = await call(kernel, 'mcp__fx__fail');
      expect(result).toMatchObject({ isError: true, metadata: { code: 'ASSISTANT_MCP_TOOL_ERROR', server: 'fx', tool: 'fail' } });
      expect(textOf(result)).toBe('the fixture failed on purpose');
    } finally {
      await kernel.shutdown();
    }
  });

  it('stops a call past toolTimeoutMs, and the server keeps serving', async () => {
    // 3 s: the quick call after the hung one must fit in it on a loaded machine too.
    const { kernel } = await mcpKernel({ mcpServers: { fx: nodeServer(FIXTURE, [], { toolTimeoutMs: 3000 }) } });
    try {
      await kernel.start();
      const result = await call(kernel, 'mcp__fx__hang');
      expect(result.isError).toBe(true);
      expect(result.metadata?.code).toBe('ASSISTANT_TOOL_TIMEOUT');
      expect(textOf(await call(kernel, 'mcp__fx__ok', { text: 'alive' }))).toBe('ok: alive');
    } finally {
      await kernel.shutdown();
    }
  });

  it('cancels a call when the batch is aborted', async () => {
    const { kernel, events } = await mcpKernel({ mcpServers: { fx: nodeServer(FIXTURE) } });
    try {
      await kernel.start();
      const abort = new AbortController();
      kernel.hooks.event.tap('abort-on-start', (event) => {
        if (event.type === 'tool_start') abort.abort();
      });
      const result = await call(kernel, 'mcp__fx__hang', {}, 'bypass', abort.signal);
      expect(result.metadata?.code).toBe('ASSISTANT_TOOL_ABORTED');
      expect(events.some((e) => e.type === 'tool_end')).toBe(true);
    } finally {
      await kernel.shutdown();
    }
  });
});

describe('shutdown', () => {
  it('closes every client and ends every stdio server process', async () => {
    const pids = tempDir();
    const { kernel } = await mcpKernel({
      mcpServers: {
        a: nodeServer(FIXTURE, [], { env: { FIXTURE_PID_FILE: join(pids, 'a') } }),
        b: nodeServer(FIXTURE, [], { env: { FIXTURE_PID_FILE: join(pids, 'b') } }),
      },
    });
    await kernel.start();
    const started = ['a', 'b'].map((name) => pidIn(join(pids, name)));
    expect(started.every(alive)).toBe(true);
    await kernel.shutdown();
    expect(started.some(alive)).toBe(false);
    expect(kernel.tools.list().some((t) => t.name.startsWith('mcp__'))).toBe(false);
  });
});

describe('list_changed', () => {
  it('refreshes the tools when the server announces a change', async () => {
    const { kernel, events } = await mcpKernel({ mcpServers: { fx: nodeServer(FIXTURE) } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(kernel.tools.get('mcp__fx__late')).toBeUndefined();
      const changed = new Promise<void>((resolve) =>
        kernel.hooks.event.tap('wait-for-change', (event) => {
          if (event.type === 'notice' && event.message.includes('"fx" changed its tools')) resolve();
        }),
      );
      expect(textOf(await call(kernel, 'mcp__fx__add_tool', { name: 'late' }))).toBe('added late');
      await changed;
      expect(kernel.tools.get('mcp__fx__late')).toBeDefined();
      expect(textOf(await call(kernel, 'mcp__fx__late'))).toBe('ran late');
      expect(notices(events).filter((n) => n.level === 'info')).toHaveLength(1);
    } finally {
      await kernel.shutdown();
    }
  });
});
