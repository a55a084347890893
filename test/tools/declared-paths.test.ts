// The paths the permission engine sees for each built-in tool come from the tool's lock set (its one
// declaration) and are the ones its old `risk.paths` gave: the table below is what that returned.
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidePermission, permissionRequestFor, type PermissionRequest, type ToolCategory } from '../../dist/core/index.js';
import { createTestKernel, type TestKernel } from '../../dist/config/test-kit.js';
import { toolDefinition } from '../../dist/plugins/mcp/tools.js';

interface Row {
  tool: string;
  input: Record<string, unknown>;
  paths: string[];
  category: ToolCategory;
  command?: string;
}

const edits = [{ old_string: 'a', new_string: 'b' }];
const ROWS: Row[] = [
  { tool: 'Read', input: { file_path: 'src/a.ts' }, paths: ['src/a.ts'], category: 'read' },
  { tool: 'Read', input: { file_path: '/etc/hosts', offset: 2 }, paths: ['/etc/hosts'], category: 'read' },
  { tool: 'Read', input: { file_path: '~/.ssh/id_rsa' }, paths: ['~/.ssh/id_rsa'], category: 'read' },
  { tool: 'Read', input: { file_path: '../outside.txt' }, paths: ['../outside.txt'], category: 'read' },
  // File names that would read as a resource or as everything are marked as the paths they are.
  { tool: 'Read', input: { file_path: '@notes' }, paths: ['./@notes'], category: 'read' },
  { tool: 'Write', input: { file_path: '*', content: 'x' }, paths: ['./*'], category: 'edit' },
  { tool: 'Glob', input: { pattern: '@x/*' }, paths: ['.', './@x'], category: 'read' },
  { tool: 'Write', input: { file_path: 'b.txt', content: 'b' }, paths: ['b.txt'], category: 'edit' },
  { tool: 'Edit', input: { file_path: '.env', old_string: 'a', new_string: 'b' }, paths: ['.env'], category: 'edit' },
  { tool: 'MultiEdit', input: { file_path: 'docs/x.md', edits }, paths: ['docs/x.md'], category: 'edit' },
  { tool: 'Glob', input: { pattern: '**/*.ts' }, paths: ['.'], category: 'read' },
  { tool: 'Glob', input: { pattern: 'src/**/*.ts', path: 'lib' }, paths: ['lib', 'lib/src'], category: 'read' },
  { tool: 'Glob', input: { pattern: '../../**' }, paths: ['.', '../..'], category: 'read' },
  { tool: 'Glob', input: { pattern: '~/.ssh/*' }, paths: ['.', '~/.ssh'], category: 'read' },
  { tool: 'Glob', input: { pattern: '/etc/*' }, paths: ['.', '/etc'], category: 'read' },
  { tool: 'Grep', input: { pattern: 'x' }, paths: ['.'], category: 'read' },
  { tool: 'Grep', input: { pattern: 'x', path: 'src', glob: '*.ts !secret/** ../up/*.js' }, paths: ['src', 'up'], category: 'read' },
  { tool: 'Grep', input: { pattern: 'x', path: '/usr/share' }, paths: ['/usr/share'], category: 'read' },
  { tool: 'LS', input: {}, paths: ['.'], category: 'read' },
  { tool: 'LS', input: { path: 'docs' }, paths: ['docs'], category: 'read' },
  { tool: 'Bash', input: { command: 'cat src/a.ts > out.txt' }, paths: [], category: 'execute', command: 'cat src/a.ts > out.txt' },
  { tool: 'TodoWrite', input: { todos: [{ id: '1', content: 'x', status: 'pending' }] }, paths: [], category: 'state' },
  { tool: 'Task', input: { description: 'look', prompt: 'look around' }, paths: [], category: 'other' },
  { tool: 'WebFetch', input: { url: 'https://example.com/' }, paths: [], category: 'network' },
  { tool: 'mcp__srv__create', input: { title: 'x' }, paths: [], category: 'other' },
];

let t: TestKernel;
beforeAll(async () => {
  const mcp = {
    name: 'mcp-stand-in',
    apply(kernel: TestKernel['kernel']) {
      // The MCP plugin's own definition, for a server that is not started.
      const connection = { name: 'srv', toolTimeoutMs: 10_000 } as Parameters<typeof toolDefinition>[0];
      kernel.tools.register(toolDefinition(connection, { name: 'create', inputSchema: { type: 'object' } }, 'mcp__srv__create'));
    },
  };
  t = await createTestKernel({ plugins: [mcp], files: { 'src/a.ts': 'a\n', 'ASSISTANT.md': '# memory\n' } });
}, 60_000);
afterAll(() => t?.close());

/** The request the permission hook received for one call, through the kit. */
async function requestSeen(tool: string, input: Record<string, unknown>): Promise<PermissionRequest> {
  await t.permission(tool, input);
  return t.hooks.last('permission')!.args[0];
}

describe('permission requests of the built-in tools', () => {
  it.each(ROWS.map((row) => [`${row.tool} ${JSON.stringify(row.input)}`, row] as const))('%s', async (_name, row) => {
    const request = await requestSeen(row.tool, row.input);
    expect(request.paths).toEqual(row.paths);
    expect(request.category).toBe(row.category);
    expect(request.command).toBe(row.command);
    // Every built-in tool names all it touches (Bash's `*` is its command's to account for).
    expect(request.unbounded).toBeUndefined();
  });

  it('covers every built-in tool', () => {
    const builtIn = t.kernel.tools.list().filter((d) => d.plugin !== 'mcp-stand-in').map((d) => d.name);
    expect(builtIn.filter((name) => !ROWS.some((row) => row.tool === name))).toEqual([]);
  });

  it('takes relative paths from the project root when the agent works in another directory', async () => {
    const read = t.kernel.tools.get('Read')!;
    const root = t.projectRoot;
    const scope = { projectRoot: root, cwd: `${root}/src`, mode: 'default' as const, headless: true };
    const call = (input: Record<string, unknown>) => ({ type: 'tool_call' as const, id: 'c', name: 'Read', input });
    // The tool reads <root>/../outside.txt, so that is what the policy must judge, not <root>/src/../outside.txt.
    expect(permissionRequestFor(read, call({ file_path: '../outside.txt' }), scope).paths).toEqual([join(dirname(root), 'outside.txt')]);
    expect(permissionRequestFor(read, call({ file_path: '/etc/hosts' }), scope).paths).toEqual(['/etc/hosts']);
    expect(permissionRequestFor(read, call({ file_path: '~/.ssh/id_rsa' }), scope).paths).toEqual(['~/.ssh/id_rsa']);
    // Judged from src/, ../outside.txt looked like <root>/outside.txt, "inside the project".
    const decision = await decidePermission(t.kernel.hooks, permissionRequestFor(read, call({ file_path: '../outside.txt' }), scope));
    expect(decision).toMatchObject({ behavior: 'ask', reason: expect.stringMatching(/outside the project/) });
  });
});

describe('lock keys from the same declaration', () => {
  it('lock a path that looks like a resource as the path it is, and a home path as everything', async () => {
    const { lockSetFor } = await import('../../dist/core/tools/lock-set.js');
    const root = t.projectRoot;
    const definition = { ...t.kernel.tools.get('Read')!, access: (input: { keys: string[] }) => ({ reads: input.keys, writes: [] }) };
    const lockOf = (keys: string[]) => lockSetFor(t.kernel.hooks, { type: 'tool_call', id: 'l', name: 'Read', input: { keys } }, definition, { projectRoot: root, cwd: root }, t.kernel.logger).reads;
    expect(lockOf(['@todos', '@mcp:github'])).toEqual(['@todos', '@mcp:github']);
    expect(lockOf(['@x/../../escape.txt'])).toEqual([join(dirname(root), 'escape.txt')]);
    expect(lockOf(['~/.ssh/id_rsa'])).toEqual(['*']);
  });
});
