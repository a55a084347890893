// The reference MCP servers from npm, run over stdio as real child processes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel, OriginEvent, SlashCommandContext, UserMessage } from '../../dist/core/index.js';
import { EVERYTHING, FILESYSTEM, call, firstTurn, mcpKernel, nodeServer, notices, textOf } from './support.js';

let kernel: Kernel;
let dir: string;
let events: OriginEvent[];

beforeAll(async () => {
  ({ kernel, dir, events } = await mcpKernel(
    { mcpServers: { everything: nodeServer(EVERYTHING, ['stdio']), files: nodeServer(FILESYSTEM, ['.']) } },
    { files: { 'notes.txt': 'remember the milk\n' } },
  ));
  await kernel.start();
  await firstTurn(kernel);
});
afterAll(() => kernel?.shutdown());

describe('stdio servers from npm', () => {
  it('registers every tool as mcp__<server>__<tool> with its input schema', () => {
    const names = kernel.tools.list().map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__files__read_text_file', 'mcp__files__write_file']));
    for (const name of names.filter((n) => n.startsWith('mcp__'))) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const sum = kernel.tools.get('mcp__everything__get-sum')!;
    expect(sum.plugin).toBe('mcp');
    expect(sum.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    expect(sum.inputSchema.$schema).toBeUndefined();
    expect(notices(events).map((n) => n.message)).toEqual([]);
  });

  it('calls tools through the pipeline and converts text results', async () => {
    const echo = await call(kernel, 'mcp__everything__echo', { message: 'hello over stdio' });
    expect(echo.isError).toBeFalsy();
    expect(textOf(echo)).toBe('Echo: hello over stdio');
    expect(echo.metadata).toMatchObject({ server: 'everything', tool: 'echo' });
    expect(textOf(await call(kernel, 'mcp__everything__get-sum', { a: 2, b: 40 }))).toContain('42');
    expect(textOf(await call(kernel, 'mcp__files__read_text_file', { path: join(dir, 'notes.txt') }))).toBe('remember the milk\n');
  });

  it('validates input against the tool schema before the server sees it', async () => {
    const result = await call(kernel, 'mcp__everything__get-sum', { a: 'two', b: 40 });
    expect(result.isError).toBe(true);
    expect(result.metadata?.code).toBe('ASSISTANT_TOOL_INPUT_INVALID');
  });

  it('converts image and embedded resource content', async () => {
    const image = await call(kernel, 'mcp__everything__get-tiny-image');
    const picture = image.content.find((p) => p.type === 'image');
    expect(picture).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(Buffer.from((picture as { data: string }).data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const resource = await call(kernel, 'mcp__everything__get-resource-reference', { resourceType: "Text", resourceId: 3 });
    expect(textOf(resource)).toMatch(/<resource uri="demo:\/\/resource\/dynamic\/text\/3"[^>]*>\n/);
  });

  it('reports an isError result as an error result the model can act on', async () => {
    // The filesystem server refuses paths outside the directories it was given.
    const result = await call(kernel, 'mcp__files__read_text_file', { path: '/etc/hostname' });
    expect(result.isError).toBe(true);
    expect(result.metadata?.code).toBe('ASSISTANT_MCP_TOOL_ERROR');
    expect(textOf(result)).toMatch(/denied|outside|not allowed/i);
  });

  it('writes through an MCP tool and the file is there', async () => {
    const result = await call(kernel, 'mcp__files__write_file', { path: join(dir, 'out.txt'), content: 'written by MCP' });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('written by MCP');
  });

  it('attaches @server:uri resources to a prompt', async () => {
    const message: UserMessage = { role: 'user', content: [{ type: 'text', text: 'summarize @everything:demo://resource/dynamic/text/1 please' }] };
    const out = await kernel.hooks.userPrompt.promise(message, { turn: 0, signal: new AbortController().signal });
    const attached = out.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    expect(out.content[0]).toEqual(message.content[0]);
    expect(attached).toContain('<resource uri="demo://resource/dynamic/text/1"');
  });

  it('reports a mention of a resource the server does not have, and leaves the prompt as typed', async () => {
    const before = notices(events).length;
    const message: UserMessage = { role: 'user', content: [{ type: 'text', text: 'read @everything:demo://nothing/here and mail me@example.com' }] };
    const out = await kernel.hooks.userPrompt.promise(message, { turn: 0, signal: new AbortController().signal });
    expect(out).toEqual(message);
    const added = notices(events).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]!.message).toContain('@everything:demo://nothing/here was not attached');
  });

  it('offers prompts as /mcp__<server>__<prompt> commands that submit the prompt', async () => {
    const command = kernel.commands.slash('mcp__everything__args-prompt')!;
    expect(command.usage).toBe('<city> [state]');
    const submitted: string[] = [];
    const context: SlashCommandContext = { print: () => undefined, ui: { submit: (text: string) => submitted.push(text) } };
    expect(await command.run('', context)).toMatch(/needs city/);
    expect(await command.run('Paris', context)).toBeUndefined();
    expect(submitted).toEqual([expect.stringContaining('Paris')]);
    // Without the interactive UI the prompt text is shown instead.
    expect(await command.run('city=Lyon state=Rhone', { print: () => undefined })).toMatch(/Lyon.*Rhone/s);
  });
});
