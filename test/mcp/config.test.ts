// mcpServers in .assistantrc and .mcp.json: validation, ${VAR} expansion, naming.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { assignNames, qualifiedName } from '../../dist/plugins/mcp/names.js';
import { expandServer } from '../../dist/plugins/mcp/expand.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { call, FIXTURE, firstTurn, mcpKernel, nodeServer, notices, textOf } from './support.js';

beforeAll(() => {
  process.env.MCP_TEST_SECRET = 'secret-from-env';
  delete process.env.MCP_TEST_UNSET;
});
afterAll(() => {
  delete process.env.MCP_TEST_SECRET;
});

const bootError = async (config: unknown) => {
  const dir = makeProject({ '.assistantrc': JSON.stringify(config) });
  return createKernel({ config: await loadConfig({ cwd: dir, env: isolatedEnv(), noUserConfig: true }), headless: true }).then(
    () => undefined,
    (error: { code: string; message: string }) => ({ code: error.code, message: error.message, dir }),
  );
};

describe('validation of mcpServers in .assistantrc', () => {
  it('names the file and the JSON path of a stdio entry without a command', async () => {
    const error = await bootError({ mcpServers: { broken: { args: ['x'] } } });
    expect(error?.code).toBe('ASSISTANT_PLUGIN_OPTIONS_INVALID');
    expect(error?.message).toContain(`${error?.dir}/.assistantrc`);
    expect(error?.message).toContain('/mcpServers/broken: must have the key "command"');
  });

  it('explains a bad field of a remote entry', async () => {
    const error = await bootError({ mcpServers: { web: { type: 'http', url: 'ftp://example.com', headers: { A: 1 } } } });
    expect(error?.message).toMatch(/\/mcpServers\/web\/url: must match pattern/);
    expect(error?.message).toContain('/mcpServers/web/headers/A: must be string');
  });

  it('refuses keys that belong to no transport', async () => {
    const error = await bootError({ mcpServers: { s: { command: 'x', url: undefined, headers: { a: 'b' } } } });
    expect(error?.message).toContain('/mcpServers/s/headers: is not a known key');
  });
});

describe('${VAR} expansion', () => {
  it('expands command, args, env, cwd, url and headers; :- gives a fallback', () => {
    const env = { HOME_DIR: '/home/me', TOKEN: 't0k', EMPTY: '' };
    const stdio = expandServer({ command: '${HOME_DIR}/bin/srv', args: ['--token=${TOKEN}', '${MISSING:-dflt}', '${EMPTY:-was-empty}'], env: { T: '${TOKEN}' }, cwd: '${HOME_DIR}' }, env);
    expect(stdio).toEqual({ config: { command: '/home/me/bin/srv', args: ['--token=t0k', 'dflt', 'was-empty'], env: { T: 't0k' }, cwd: '/home/me' }, missing: [] });
    const remote = expandServer({ type: 'http', url: 'https://${HOST:-api.example.com}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }, env);
    expect(remote.config).toEqual({ type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer t0k' } });
    expect(expandServer({ command: 'x', env: { 'A/B': '${NOPE}' } }, env).missing).toEqual([{ name: 'NOPE', pointer: '/env/A~1B' }]);
  });

  it('passes expanded values to the server process', async () => {
    const { kernel } = await mcpKernel({
      mcpServers: { fx: nodeServer(FIXTURE, [], { env: { GIVEN: '${MCP_TEST_SECRET}', FALLBACK: '${MCP_TEST_UNSET:-fallback-value}' } }) },
    });
    try {
      await kernel.start();
      expect(textOf(await call(kernel, 'mcp__fx__env', { name: 'GIVEN' }))).toBe('secret-from-env');
      expect(textOf(await call(kernel, 'mcp__fx__env', { name: 'FALLBACK' }))).toBe('fallback-value');
      // Only what the entry gives, over a small safe base, reaches the server: not our whole environment.
      expect(textOf(await call(kernel, 'mcp__fx__env', { name: 'MCP_TEST_SECRET' }))).toBe('(unset)');
    } finally {
      await kernel.shutdown();
    }
  });

  it('does not start a server whose variable is unset, and says which and where', async () => {
    const { kernel, events, dir } = await mcpKernel({ mcpServers: { fx: nodeServer(FIXTURE, [], { env: { TOKEN: '${MCP_TEST_UNSET}' } }) } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(notices(events)).toEqual([
        expect.objectContaining({
          code: 'ASSISTANT_MCP_CONFIG_INVALID',
          message: `${dir}/.assistantrc: /mcpServers/fx/env/TOKEN: \${MCP_TEST_UNSET} is not set; export it or write \${NAME:-default}`,
        }),
      ]);
      expect(kernel.tools.list().some((t) => t.name.startsWith('mcp__'))).toBe(false);
    } finally {
      await kernel.shutdown();
    }
  });
});

describe("a project's .mcp.json", () => {
  it('adds its servers, reports a bad entry with file and path, and lets .assistantrc win on a name', async () => {
    const mcpJson = {
      mcpServers: {
        shared: nodeServer(FIXTURE, ['shared']),
        clash: { command: 'assistant-test-not-this-one' },
        bad: { type: 'stdio', args: [] },
      },
    };
    const { kernel, events, dir } = await mcpKernel({ mcpServers: { clash: nodeServer(FIXTURE) } }, { files: { '.mcp.json': JSON.stringify(mcpJson) } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(textOf(await call(kernel, 'mcp__shared__ok', { text: 'from .mcp.json' }))).toBe('ok: from .mcp.json');
      expect(textOf(await call(kernel, 'mcp__clash__ok', { text: 'config wins' }))).toBe('ok: config wins');
      expect(notices(events)).toEqual([
        expect.objectContaining({ code: 'ASSISTANT_MCP_CONFIG_INVALID', message: `${dir}/.mcp.json: /mcpServers/bad: must have the key "command"` }),
      ]);
    } finally {
      await kernel.shutdown();
    }
  });

  it('reports a .mcp.json that is not JSON, and starts', async () => {
    const { kernel, events, dir } = await mcpKernel({}, { files: { '.mcp.json': '{ "mcpServers": ' } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      expect(notices(events)).toEqual([expect.objectContaining({ code: 'ASSISTANT_MCP_CONFIG_INVALID', message: expect.stringContaining(`${dir}/.mcp.json: is not valid JSON`) })]);
    } finally {
      await kernel.shutdown();
    }
  });
});

describe('tool names', () => {
  it('sanitizes to the providers\u2019 alphabet and keeps names within 64 characters', () => {
    expect(qualifiedName('my server', 'get.page')).toBe('mcp__my_server__get_page');
    const long = qualifiedName('s', 'x'.repeat(100));
    expect(long).toMatch(/^[a-zA-Z0-9_-]{64}$/);
    expect(long).not.toBe(qualifiedName('s', 'x'.repeat(99)));
  });

  it('gives names that collide after sanitizing distinct, stable names', () => {
    const names = assignNames('srv', ['a.b', 'a_b', 'a b'], () => false);
    expect(new Set(names.values()).size).toBe(3);
    expect(names.get('a_b')).toBe('mcp__srv__a_b');
    expect(assignNames('srv', ['a b', 'a_b', 'a.b'], () => false)).toEqual(names);
  });

  it('does not take a name another plugin already registered', () => {
    const names = assignNames('github', ['create_issue'], (name) => name === 'mcp__github__create_issue');
    expect(names.get('create_issue')).toMatch(/^mcp__github__create_issue_[0-9a-f]{6}$/);
  });
});
