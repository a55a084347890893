// The built CLI: `assistant mcp list | add | remove`, start-up cost, and a model calling an MCP tool.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { gitProject, jsonLines, requestText, runHeadless, startFakeLlm, type FakeLlm } from '../e2e/support.js';
import { EVERYTHING, FIXTURE, nodeServer } from './support.js';

const mcp = (dir: string, args: string[], env = isolatedEnv()) => runCli(['--trust-project', 'mcp', ...args], { cwd: dir, env, timeoutMs: 30_000 });

describe('assistant mcp list', () => {
  it('connects to each server and shows its status and tool count; failures say why', async () => {
    const dir = makeProject({
      '.assistantrc': JSON.stringify({
        mcpServers: {
          everything: nodeServer(EVERYTHING, ['stdio']),
          fx: nodeServer(FIXTURE),
          ghost: { command: 'assistant-test-no-such-command' },
          silent: nodeServer(FIXTURE, [], { env: { FIXTURE_SILENT: '1' }, startupTimeoutMs: 400 }),
        },
      }),
    });
    const table = await mcp(dir, ['list']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^name\s+transport\s+status\s+tools\s+source$/);
    expect(lines.find((l) => l.startsWith('fx '))).toMatch(/^fx\s+stdio\s+connected\s+6\s+\.assistantrc$/);
    expect(lines.find((l) => l.startsWith('ghost '))).toMatch(/failed\s+0/);
    expect(table.stdout).toContain('ghost: ASSISTANT_MCP_CONNECT_FAILED: the MCP server "ghost" could not be started');
    expect(table.stdout).toContain('silent: ASSISTANT_MCP_CONNECT_TIMEOUT');

    const json = await mcp(dir, ['list', '--json']);
    const rows = (JSON.parse(json.stdout) as { servers: Array<{ name: string; status: string; tools: number; prompts: number }> }).servers;
    const everything = rows.find((r) => r.name === 'everything')!;
    expect(everything.status).toBe('connected');
    expect(everything.tools).toBeGreaterThan(5);
    expect(everything.prompts).toBeGreaterThan(0);
  });

  it('says how to add a server when there is none', async () => {
    const result = await mcp(makeProject(), ['list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No MCP servers are configured. Add one with: assistant mcp add');
  });
});

describe('assistant mcp add / remove', () => {
  it('creates .assistantrc when the project has none, and the server then works', async () => {
    const dir = makeProject();
    const added = await mcp(dir, ['add', 'fx', '-e', 'TOKEN=${FX_TOKEN}', '--', process.execPath, FIXTURE, 'named']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe(`added MCP server "fx" to ${dir}/.assistantrc\n`);
    expect(JSON.parse(readFileSync(join(dir, '.assistantrc'), 'utf8'))).toEqual({
      mcpServers: { fx: { command: process.execPath, args: [FIXTURE, 'named'], env: { TOKEN: '${FX_TOKEN}' } } },
    });
    const listed = await mcp(dir, ['list', '--json'], isolatedEnv({ FX_TOKEN: 'x' }));
    expect(JSON.parse(listed.stdout).servers).toEqual([expect.objectContaining({ name: 'fx', status: 'connected', tools: 6 })]);
  });

  it('edits a YAML config in place, keeping its comments, and refuses a name twice', async () => {
    const yaml = '# team settings\nprovider:\n  name: anthropic # the default\nmcpServers:\n  # our issue tracker\n  tracker:\n    command: tracker-mcp\n';
    const dir = makeProject({ '.assistantrc.yaml': yaml });
    const added = await mcp(dir, ['add', '--transport', 'http', 'web', 'https://mcp.example.com/mcp', '-H', 'Authorization: Bearer ${WEB_TOKEN}']);
    expect(added.code, added.stderr).toBe(0);
    const text = readFileSync(join(dir, '.assistantrc.yaml'), 'utf8');
    expect(text.startsWith(yaml)).toBe(true);
    expect(text.slice(yaml.length)).toBe('  web:\n    type: http\n    url: https://mcp.example.com/mcp\n    headers:\n      Authorization: Bearer ${WEB_TOKEN}\n');

    const again = await mcp(dir, ['add', 'web', '--', 'other']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^ASSISTANT_MCP_SERVER_EXISTS: .*\.assistantrc\.yaml already has an MCP server "web"/);
    expect(readFileSync(join(dir, '.assistantrc.yaml'), 'utf8')).toBe(text);

    const removed = await mcp(dir, ['remove', 'web']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(readFileSync(join(dir, '.assistantrc.yaml'), 'utf8')).toBe(yaml);
  });

  it("keeps a JSON file's indentation and other keys; removing the last server drops mcpServers", async () => {
    const dir = makeProject({ '.assistantrc': JSON.stringify({ provider: { name: 'openai' }, mcpServers: { a: { command: 'a' } } }, null, 4) + '\n' });
    expect((await mcp(dir, ['remove', 'a'])).code).toBe(0);
    expect(readFileSync(join(dir, '.assistantrc'), 'utf8')).toBe('{\n    "provider": {\n        "name": "openai"\n    }\n}\n');
  });

  it("edits package.json's assistant key, leaving the rest of the manifest", async () => {
    const manifest = { name: 'app', version: '1.0.0', assistant: { provider: { name: 'anthropic' } } };
    const dir = makeProject({ 'package.json': JSON.stringify(manifest, null, 2) + '\n' });
    expect((await mcp(dir, ['add', 'fx', '--', 'node', 'fx.js'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toEqual({ ...manifest, assistant: { ...manifest.assistant, mcpServers: { fx: { command: 'node', args: ['fx.js'] } } } });
  });

  it('removes a server that only .mcp.json defines from .mcp.json', async () => {
    const dir = makeProject({ '.assistantrc': '{}', '.mcp.json': JSON.stringify({ mcpServers: { shared: { command: 's' }, kept: { command: 'k' } } }) });
    const removed = await mcp(dir, ['remove', 'shared']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain(`from ${dir}/.mcp.json`);
    expect(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { kept: { command: 'k' } } });
  });

  it('says there is no such server, listing those there are', async () => {
    const dir = makeProject({ '.assistantrc': JSON.stringify({ mcpServers: { real: { command: 'r' } } }) });
    const result = await mcp(dir, ['remove', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('ASSISTANT_MCP_SERVER_UNKNOWN: there is no MCP server "nope" (configured: real)\n');
  });

  it('refuses to rewrite a JavaScript config, and leaves it alone', async () => {
    const js = 'export default { provider: { name: "anthropic" } };\n';
    const dir = makeProject({ '.assistantrc.mjs': js });
    const result = await mcp(dir, ['add', 'fx', '--', 'node', 'x.js']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ASSISTANT_CONFIG_WRITE_FAILED: .*\.assistantrc\.mjs is JavaScript, which assistant does not rewrite/);
    expect(readFileSync(join(dir, '.assistantrc.mjs'), 'utf8')).toBe(js);
  });

  it('checks the flags: env pairs, one URL, a known transport', async () => {
    const dir = makeProject();
    expect((await mcp(dir, ['add', 'fx', '-e', 'novalue', '--', 'node'])).stderr).toMatch(/^ASSISTANT_USAGE: --env expects KEY=VALUE \(got "novalue"\)/);
    expect((await mcp(dir, ['add', '-t', 'http', 'web', 'https://a', 'https://b'])).stderr).toMatch(/needs exactly one URL/);
    expect((await mcp(dir, ['add', '-t', 'carrier-pigeon', 'x', 'y'])).stderr).toMatch(/--transport must be stdio, http or sse/);
    expect((await mcp(dir, ['add', 'web', 'https://a', '-e', 'A=1'])).stderr).toMatch(/--env is for stdio servers/);
  });
});

describe('start-up cost', () => {
  const TRACE = fileURLToPath(new URL('../providers/fixtures/trace-imports.mjs', import.meta.url));

  async function importsOf(args: string[], cwd: string): Promise<{ urls: string[]; status: number | null; stdout: string }> {
    const file = join(tempDir(), 'imports.txt');
    const child = spawn(process.execPath, ['--import', TRACE, CLI, ...args], { cwd, env: { ...isolatedEnv(), TRACE_IMPORTS_FILE: file }, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { urls: readFileSync(file, 'utf8').split('\n').filter(Boolean), status, stdout };
  }

  it.each([[['--help']], [['--version']], [['mcp', '--help']]])('assistant %j loads no MCP SDK and starts no server, even with servers configured', async (args) => {
    const pids = tempDir();
    const dir = makeProject({ '.assistantrc': JSON.stringify({ mcpServers: { fx: nodeServer(FIXTURE, [], { env: { FIXTURE_PID_FILE: join(pids, 'fx') } }) } }) });
    const run = await importsOf(args, dir);
    expect(run.status).toBe(0);
    expect(run.urls.filter((u) => u.includes('/node_modules/@modelcontextprotocol/'))).toEqual([]);
    // The mcp plugin was applied: its command is listed (the bundled CLI takes built-in plugins from runtime.cjs, no file of their own).
    if (args[0] === '--help') expect(run.stdout).toMatch(/^\s+mcp\s+list, add or remove MCP servers/m);
    expect(() => readFileSync(join(pids, 'fx'))).toThrow();
  });
});

describe('a model calling an MCP tool (built CLI, fake LLM)', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({
      fixture: {
        turns: [
          {
            name: 'call the MCP tool',
            when: { userText: 'Echo through MCP' },
            reply: { text: 'Calling the server.', toolCalls: [{ id: 'call_mcp', name: 'mcp__everything__echo', input: { message: 'hello from the model' } }] },
          },
          { name: 'answer', when: { toolResultFor: 'call_mcp' }, reply: { text: 'The server echoed it back.' } },
        ],
        fallback: { text: 'unexpected request' },
      },
    });
  });
  afterAll(() => fake?.close());

  it('offers the tool, runs it when a rule allows it, and sends its result to the model', async () => {
    const dir = gitProject({
      '.assistantrc': JSON.stringify({ mcpServers: { everything: nodeServer(EVERYTHING, ['stdio']) }, permissions: { allow: ['mcp__everything__echo'] } }),
    });
    const run = await runHeadless(fake, dir, ['--trust-project', '--output-format', 'stream-json', 'Echo through MCP'], { env: { ANTHROPIC_API_KEY: 'test-key' } });
    expect(run.code, run.stderr).toBe(0);
    const requests = fake.requests.filter((r) => r.path.endsWith('/messages'));
    expect(requests).toHaveLength(2);
    expect((requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('mcp__everything__echo');
    expect(requestText(requests[1]!)).toContain('Echo: hello from the model');
    const lines = jsonLines(run.stdout);
    expect(lines.find((l) => l.type === 'permission')).toMatchObject({ tool: 'mcp__everything__echo', behavior: 'allow', layer: 'rules' });
    expect(lines.find((l) => l.type === 'tool_result')).toMatchObject({ name: 'mcp__everything__echo', is_error: false, content: [{ type: 'text', text: 'Echo: hello from the model' }] });
    expect(lines.at(-1)).toMatchObject({ type: 'result' });
    expect(JSON.stringify(lines.at(-1))).toContain('The server echoed it back.');
  });

  it('without a rule, headless denies the call and the model is told why; a broken server is reported on stderr', async () => {
    fake.reset();
    const dir = gitProject({
      '.assistantrc': JSON.stringify({ mcpServers: { everything: nodeServer(EVERYTHING, ['stdio']), ghost: { command: 'assistant-test-no-such-command' } } }),
    });
    const run = await runHeadless(fake, dir, ['--trust-project', 'Echo through MCP'], { env: { ANTHROPIC_API_KEY: 'test-key' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('The server echoed it back.\n');
    expect(run.stderr.match(/warn: the MCP server "ghost" could not be started .*command not found: assistant-test-no-such-command/g)).toHaveLength(1);
    const requests = fake.requests.filter((r) => r.path.endsWith('/messages'));
    expect(requestText(requests[1]!)).toMatch(/Permission to run mcp__everything__echo was denied/);
    expect(requestText(requests[1]!)).not.toContain('Echo: hello from the model');
  });
});
