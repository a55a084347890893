// MCP server names that could pass for another server in `mcp__<server>__<tool>` are refused, and
// permission rules on MCP tools match the (server, tool) pair, never a string prefix.
import { describe, expect, it } from 'vitest';
import { parseToolName, qualifiedName, serverNameProblem } from '../../dist/plugins/mcp/names.js';
import { parseRule } from '../../dist/plugins/permissions/policy/rules/parse.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { FIXTURE, firstTurn, mcpKernel, nodeServer, notices } from './support.js';

describe('MCP server names', () => {
  it.each(['github__evil', 'github_', '_github', 'a.b', 'a b', 'x/y', 'ü', '', 'a'.repeat(41)])('refuses %j', (name) => {
    expect(serverNameProblem(name)).toMatch(/not a valid MCP server name/);
  });

  it.each(['github', 'my-server', 'my_server', 'a1', 'a'.repeat(40)])('accepts %j, and its tool names parse back to it', (name) => {
    expect(serverNameProblem(name)).toBeUndefined();
    expect(parseToolName(qualifiedName(name, 'create_issue'))).toEqual({ server: name, tool: 'create_issue' });
    // A long tool name is cut, never the server's part.
    expect(parseToolName(qualifiedName(name, 'x'.repeat(80)))?.server).toBe(name);
  });

  it('does not start a server named github__evil (config or .mcp.json), with a coded error naming the file', async () => {
    const mcpJson = { mcpServers: { 'jira__evil': nodeServer(FIXTURE) } };
    const { kernel, events, dir } = await mcpKernel({ mcpServers: { github__evil: nodeServer(FIXTURE), github: nodeServer(FIXTURE) } }, { files: { '.mcp.json': JSON.stringify(mcpJson) } });
    try {
      await kernel.start();
      await firstTurn(kernel);
      const refused = notices(events).filter((n) => n.code === 'ASSISTANT_MCP_SERVER_NAME_INVALID');
      expect(refused.map((n) => n.message)).toEqual([
        expect.stringContaining(`${dir}/.assistantrc: /mcpServers/github__evil: "github__evil" is not a valid MCP server name`),
        expect.stringContaining(`${dir}/.mcp.json: /mcpServers/jira__evil:`),
      ]);
      const names = kernel.tools.list().map((t) => t.name).filter((n) => n.startsWith('mcp__'));
      expect(names.length).toBeGreaterThan(0);
      expect(names.every((n) => n.startsWith('mcp__github__') && parseToolName(n)?.server === 'github')).toBe(true);
    } finally {
      await kernel.shutdown();
    }
  }, 60_000);

  it('`mcp add` refuses such a name', async () => {
    const r = await runCli(['mcp', 'add', 'github__evil', '--', 'node', 'x.js'], { cwd: makeProject(), env: isolatedEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ASSISTANT_MCP_SERVER_NAME_INVALID.*github__evil/);
  });
});

describe('permission rules on MCP tools', () => {
  const allows = (rule: string, tool: string) => parseRule(rule, 'allow', 'test').matchesToolName(tool);

  it('match the parsed server and tool', () => {
    expect(allows('mcp__github__*', 'mcp__github__create_issue')).toBe(true);
    expect(allows('mcp__github', 'mcp__github__create_issue')).toBe(true);
    expect(allows('mcp__github__*', 'mcp__githubx__create_issue')).toBe(false);
    expect(allows('mcp__github', 'mcp__github-evil__x')).toBe(false);
    // The tool part is matched against the tool alone: `*` in the server part cannot swallow a `__`.
    expect(allows('mcp__*__read', 'mcp__a__b__read')).toBe(false);
    expect(allows('mcp__*__read', 'mcp__a__read')).toBe(true);
    expect(allows('mcp__github__create_*', 'mcp__github__create_issue')).toBe(true);
    // Server `github`, tool `_x` (sanitized from `.x`): server names never end in `_`.
    expect(allows('mcp__github__*', 'mcp__github___x')).toBe(true);
    // A name no valid server could have is never allowed by an MCP rule.
    expect(allows('mcp__*', 'mcp__bad.server__x')).toBe(false);
  });

  it('deny rules also match by text, so a name that does not parse is still caught', () => {
    const denies = (rule: string, tool: string) => parseRule(rule, 'deny', 'test').matchesToolName(tool);
    expect(denies('mcp__*', 'mcp__bad.server__x')).toBe(true);
    expect(denies('mcp__github__*', 'mcp__github__create_issue')).toBe(true);
  });
});
