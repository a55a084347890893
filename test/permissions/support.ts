import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir, writeFiles } from '../support/project.js';

/**
 * Stand-ins for tools that are not built in (WebFetch, MCP tools), with the lock sets and risk hints
 * such tools give; the built-in tools are the real ones. The permission engine only reads a tool's definition.
 */
export const TEST_TOOLS_PLUGIN = `
const given = (key) => (input) => (input[key] === undefined ? [] : [input[key]]);
const reads = (paths) => (input) => ({ reads: paths(input), writes: [] });
const writes = (paths) => (input) => ({ reads: [], writes: paths(input) });
const none = () => ({ reads: [], writes: [] });
const never = async () => { throw new Error('permission tests never run tools'); };
const tool = (name, category, access, risk = {}) => ({ name, description: name, inputSchema: { type: 'object' }, access, handler: never, risk: { category, ...risk } });
export default {
  name: 'test-tools',
  apply(kernel) {
    const register = (definition) => kernel.tools.get(definition.name) || kernel.tools.register(definition);
    register(tool('Bash', 'execute', 'write', { command: (i) => i.command }));
    register(tool('Read', 'read', reads(given('file_path'))));
    register(tool('Edit', 'edit', writes(given('file_path'))));
    register(tool('MultiEdit', 'edit', writes(given('file_path'))));
    register(tool('Write', 'edit', writes(given('file_path'))));
    register(tool('Glob', 'read', reads((i) => [i.path ?? '.'])));
    register(tool('Grep', 'read', reads((i) => [i.path ?? '.'])));
    register(tool('LS', 'read', reads(given('path'))));
    register(tool('WebFetch', 'network', none));
    register(tool('mcp__github__create_issue', 'other', () => ({ reads: [], writes: ['@mcp:github'] })));
    register(tool('mcp__jira__search', 'other', () => ({ reads: [], writes: ['@mcp:jira'] })));
  },
};
`;

/** A realistic project with secrets, symlinks out of it, and a home directory with keys and shell files. */
export interface PolicyFixture {
  root: string;
  home: string;
  outside: string;
  env: NodeJS.ProcessEnv;
}

/** Builds the fixture; `config` (or a function of the outside and home directories) is merged into the project's .assistantrc. */
export function policyFixture(config: Record<string, unknown> | ((dirs: { outside: string; home: string }) => Record<string, unknown>) = {}): PolicyFixture {
  const env = isolatedEnv();
  const home = env.HOME!;
  const outside = tempDir('assistant-outside-');
  writeFiles(outside, { 'file.txt': 'outside\n' });
  writeFiles(home, {
    '.ssh/id_rsa': 'PRIVATE KEY\n',
    '.ssh/config': 'Host *\n',
    '.aws/credentials': '[default]\n',
    '.bashrc': '# bash\n',
    '.zshrc': '# zsh\n',
    '.profile': '# profile\n',
    '.netrc': 'machine x\n',
    'notes.txt': 'notes\n',
  });
  const extra = typeof config === 'function' ? config({ outside, home }) : config;
  const root = makeProject({
    '.assistantrc': JSON.stringify({ plugins: ['./test-tools.mjs'], ...extra }, null, 2),
    'test-tools.mjs': TEST_TOOLS_PLUGIN,
    '.env': 'API_KEY=secret\n',
    '.env.local': 'API_KEY=local\n',
    '.env.example': 'API_KEY=\n',
    'package.json': JSON.stringify({ name: 'fixture', scripts: { test: 'vitest run', lint: 'eslint .', build: 'tsc' } }),
    'README.md': '# fixture\n',
    'src/index.ts': 'export * from "./a";\n',
    'src/a.ts': 'export const a = 1; // TODO\n',
    'src/b.ts': 'export const b = 2;\n',
    'docs/guide.md': '# guide\n',
    'names.txt': 'b\na\nc\n',
    'data.csv': 'a,1,200\nb,2,50\n',
    'list.txt': 'src/a.ts\n',
  });
  execFileSync('git', ['init', '-q', root]);
  mkdirSync(join(root, 'sub'));
  symlinkSync(join(root, '.env'), join(root, 'link-to-env'));
  symlinkSync(outside, join(root, 'link-out'));
  symlinkSync(join(home, '.ssh'), join(root, 'link-ssh'));
  symlinkSync(join(home, '.zshrc'), join(root, 'link-rc'));
  symlinkSync(join(outside, 'not-yet.txt'), join(root, 'dangling-out'));
  return { root, home, outside, env };
}

/** Reads a corpus file: one command per line, `#` comments, `⏎` for a newline inside a command. */
export function corpus(name: string): string[] {
  const text = readFileSync(fileURLToPath(new URL(`./corpus/${name}`, import.meta.url)), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.replaceAll('⏎', '\n'));
}

/** One request for `permissions check --batch`. */
export interface CheckRequest {
  tool: string;
  input: Record<string, unknown>;
  mode?: 'default' | 'acceptEdits' | 'plan' | 'bypass';
}

/** One decision line printed by `permissions check --batch`. */
export interface CheckResult {
  line: number;
  tool?: string;
  behavior?: 'allow' | 'deny' | 'ask';
  layer?: string;
  reason?: string;
  suggestedRule?: string;
  error?: string;
}

/** Runs many requests through the built CLI in one process; results come back in request order. */
export async function checkBatch(fixture: PolicyFixture, requests: CheckRequest[], args: string[] = []): Promise<CheckResult[]> {
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  // The fixture's config loads a project plugin and sets rules: the user trusts it.
  const result = await runCli(['permissions', 'check', '--batch', '-', '--trust-project', ...args], { cwd: fixture.root, env: fixture.env, input, timeoutMs: 120_000 });
  if (result.code !== 0 && result.code !== 2) throw new Error(`permissions check failed (${result.code}): ${result.stderr}`);
  const lines = result.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as CheckResult);
  if (lines.length !== requests.length) throw new Error(`expected ${requests.length} decisions, got ${lines.length}\n${result.stderr}`);
  return lines;
}

/** Bash requests for a list of commands in one mode. */
export function bash(commands: string[], mode: CheckRequest['mode'] = 'default'): CheckRequest[] {
  return commands.map((command) => ({ tool: 'Bash', input: { command }, mode }));
}

/** Writes a project file (for tests that change the fixture). */
export function write(fixture: PolicyFixture, path: string, content: string): void {
  writeFileSync(join(fixture.root, path), content);
}
