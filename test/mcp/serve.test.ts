import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

// `assistant mcp serve` driven by the SDK's own client over stdio, spawning the built CLI.
const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

type Elicit = (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

async function connect(dir: string, options: { elicit?: Elicit; args?: string[] } = {}): Promise<{ client: Client; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client({ name: 'test-agent', version: '1.0.0' }, { capabilities: options.elicit ? { elicitation: {} } : {} });
  if (options.elicit) {
    const elicit = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return elicit(request.params.message);
    });
  }
  const env = isolatedEnv() as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, ...(options.args ?? []), 'mcp', 'serve'], cwd: dir, env, stderr: 'pipe' });
  await client.connect(transport);
  clients.push(client);
  return { client, asked };
}

const text = (result: unknown) => (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

describe('assistant mcp serve', () => {
  it('lists the built-in tools with their schemas, and leaves out the agent-only ones', async () => {
    const dir = makeProject({ 'a.txt': 'hello\n' });
    const { client } = await connect(dir);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['Read', 'Write', 'Edit', 'Bash', 'Glob', 'Grep']));
    expect(names).not.toContain('TodoWrite');
    expect(names.some((n) => n.startsWith('mcp__'))).toBe(false);
    const read = tools.find((t) => t.name === 'Read')!;
    expect(read.description?.length).toBeGreaterThan(20);
    expect(read.inputSchema).toMatchObject({ type: 'object', properties: expect.objectContaining({ file_path: expect.anything() }) });
    expect(read.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('runs an allowed Read and returns its text', async () => {
    const dir = makeProject({ 'a.txt': 'hello from the project\n' });
    const { client } = await connect(dir);
    const result = await client.callTool({ name: 'Read', arguments: { file_path: join(dir, 'a.txt') } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).toContain('hello from the project');
  });

  it('denies a Write in default mode when the client cannot elicit, naming the rule to add', async () => {
    const dir = makeProject({ 'a.txt': 'x\n' });
    const { client } = await connect(dir);
    const result = await client.callTool({ name: 'Write', arguments: { file_path: join(dir, 'new.txt'), content: 'written\n' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/cannot ask its user/);
    expect(text(result)).toMatch(/add "(Edit|Write)\(new\.txt\)" to permissions\.allow/);
    expect(existsSync(join(dir, 'new.txt'))).toBe(false);
  });

  it('asks through elicitation: a Write runs after "accept" with allow ticked, not after a decline', async () => {
    const dir = makeProject({ 'a.txt': 'x\n' });
    let answer: ReturnType<Elicit> = { action: 'decline' };
    const { client, asked } = await connect(dir, { elicit: () => answer });
    const declined = await client.callTool({ name: 'Write', arguments: { file_path: join(dir, 'no.txt'), content: 'no\n' } });
    expect(declined.isError).toBe(true);
    expect(existsSync(join(dir, 'no.txt'))).toBe(false);
    // "accept" without the explicit yes is still a no.
    answer = { action: 'accept', content: { allow: false } };
    const unticked = await client.callTool({ name: 'Write', arguments: { file_path: join(dir, 'no.txt'), content: 'no\n' } });
    expect(unticked.isError).toBe(true);
    expect(existsSync(join(dir, 'no.txt'))).toBe(false);
    answer = { action: 'accept', content: { allow: true } };
    const allowed = await client.callTool({ name: 'Write', arguments: { file_path: join(dir, 'yes.txt'), content: 'yes\n' } });
    expect(allowed.isError).toBeFalsy();
    expect(readFileSync(join(dir, 'yes.txt'), 'utf8')).toBe('yes\n');
    expect(asked).toHaveLength(3);
    expect(asked[2]).toContain('Write');
  });

  it('never runs a Bash command the policy blocks, even with a client that says yes to everything in bypass mode', async () => {
    const dir = makeProject({ 'a.txt': 'x\n' });
    const { client, asked } = await connect(dir, { elicit: () => ({ action: 'accept', content: { allow: true } }), args: ['--permission-mode', 'bypass'] });
    const result = await client.callTool({ name: 'Bash', arguments: { command: 'touch blocked-marker && rm -rf ~' } });
    expect(result.isError).toBe(true);
    expect(asked).toEqual([]);
    expect(existsSync(join(dir, 'blocked-marker'))).toBe(false);
    // The same server runs an ordinary command, so the denial above was the policy's.
    const ok = await client.callTool({ name: 'Bash', arguments: { command: 'touch ok-marker' } });
    expect(ok.isError, text(ok)).toBeFalsy();
    expect(existsSync(join(dir, 'ok-marker'))).toBe(true);
  });

  it('refuses a tool it does not offer', async () => {
    const dir = makeProject();
    const { client } = await connect(dir);
    const result = await client.callTool({ name: 'TodoWrite', arguments: { todos: [] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('unknown tool');
  });
});
