// Every recipe in docs/recipes.md, taken from the page itself (so the page and the test cannot drift),
// boots the kernel as its .assistantrc, and the provider, strategy, store, mode and plugins it asks
// for are the ones in force. Only what cannot exist here is overridden, through the flags layer (as
// a command-line flag would): the model server's and Redis's addresses.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import {
  decidePermission,
  permissionRequestFor,
  type AssistantConfig,
  type Kernel,
  type PermissionDecision,
} from '../../dist/core/index.js';
import { createRunner, openSession } from '../../dist/core/kits/agent/index.js';
import { isolatedEnv } from '../support/project.js';
import { runCli } from '../support/cli.js';
import { gitProject, sharedFakeLlm } from '../e2e/support.js';
import { redisServerBinary, useRedis } from '../sessions/redis-server.js';

const page = readFileSync(new URL('../../docs/recipes.md', import.meta.url), 'utf8');
/** The recipes on the page: the YAML blocks whose first line is `# recipe: <name>`. */
const recipes = new Map([...page.matchAll(/^```yaml\n# recipe: ([a-z0-9-]+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, `# recipe: ${m[1]}\n${m[2]}`]));

// In-process stores and audit logs write under the user's data directory: a temp one here.
beforeAll(() => void Object.assign(process.env, isolatedEnv()));
const llm = sharedFakeLlm();

const kernels: Kernel[] = [];
afterEach(async () => {
  for (const kernel of kernels.splice(0)) await kernel.shutdown();
});

/** A git project whose .assistantrc is the recipe, booted with every built-in plugin. */
async function boot(name: string, flags: AssistantConfig = {}, files: Record<string, string> = {}): Promise<{ kernel: Kernel; dir: string; env: NodeJS.ProcessEnv }> {
  const recipe = recipes.get(name);
  if (!recipe) throw new Error(`docs/recipes.md has no recipe "${name}"`);
  const dir = gitProject({ 'README.md': '# app\n', ...files, '.assistantrc': recipe });
  const env = isolatedEnv();
  const config = await loadConfig({ cwd: dir, env, noUserConfig: true, flags });
  expect(config.projectFile).toBe(join(dir, '.assistantrc'));
  const kernel = await createKernel({ config, headless: true });
  kernels.push(kernel);
  await kernel.start();
  return { kernel, dir, env };
}

/** The context strategy requests run: the one the config selects, when a loaded plugin offers it. */
const strategy = (kernel: Kernel) => {
  const name = kernel.config.context?.strategy;
  return name && kernel.hooks.contextStrategy.get(name)?.isUsed() ? name : undefined;
};
const plugins = (kernel: Kernel) => kernel.plugins.map((p) => p.name);

/** How the permission engine judges a call, as the tool pipeline would. */
async function judge(kernel: Kernel, tool: string, input: Record<string, unknown>, headless = false): Promise<PermissionDecision['behavior']> {
  const definition = kernel.tools.get(tool);
  if (!definition) throw new Error(`no tool ${tool}`);
  const mode = kernel.config.permissions?.mode ?? 'default';
  const request = permissionRequestFor(definition, { type: 'tool_call', id: `${tool}-1`, name: tool, input }, { projectRoot: kernel.projectRoot, cwd: kernel.cwd, mode, headless });
  return (await decidePermission(kernel.hooks, request)).behavior;
}

/** Runs one prompt on a new session. */
async function prompt(kernel: Kernel, text: string) {
  const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: kernel.config.permissions?.mode ?? 'default' });
  kernel.session = session;
  return { session, result: await createRunner(kernel, session).run(text) };
}

describe('docs/recipes.md', () => {
  it('has the four recipes, each a complete .assistantrc', () => {
    expect([...recipes.keys()]).toEqual(['solo-anthropic', 'team-redis', 'local-ollama', 'ci-headless']);
  });

  it('solo developer on Anthropic: compaction, JSONL sessions, acceptEdits, a formatter hook, a cost limit', async () => {
    const { kernel } = await boot('solo-anthropic', { provider: { baseURL: llm.server.anthropicBaseURL } });
    expect(kernel.provider().name).toBe('anthropic');
    expect(kernel.config.provider?.model).toBe('claude-sonnet-4-6');
    expect(strategy(kernel)).toBe('compaction');
    expect(kernel.store().name).toBe('jsonl');
    expect(kernel.config.permissions?.mode).toBe('acceptEdits');
    expect(kernel.plugins.find((p) => p.name === 'hooks-shell')?.hooks).toEqual(['afterToolCall']);
    // limits.maxCostUsd can only be enforced with a price for the model.
    expect(kernel.budget.price('anthropic', 'claude-sonnet-4-6')).toBeDefined();
    expect(await judge(kernel, 'Write', { file_path: 'src/new.ts', content: 'x' })).toBe('allow');
    expect(await judge(kernel, 'Bash', { command: 'npm test' })).toBe('allow');
    expect(await judge(kernel, 'Bash', { command: 'npm publish' })).toBe('ask');

    llm.script({ turns: [{ reply: { text: 'Hello from Claude.' } }], fallback: { text: 'UNEXPECTED' } });
    const { result } = await prompt(kernel, 'hi');
    expect(result).toMatchObject({ reason: 'completed', text: 'Hello from Claude.' });
    expect(llm.server.requests[0]).toMatchObject({ path: '/v1/messages', body: { model: 'claude-sonnet-4-6' } });
  });

  const binary = redisServerBinary();
  describe.skipIf(!binary)('team on Redis (real redis-server on 127.0.0.1)', () => {
    const redis = useRedis(binary);

    it('keeps sessions in Redis under its prefix, rolls the context, and enforces the strict policy', async () => {
      const { kernel } = await boot('team-redis', { provider: { baseURL: llm.server.anthropicBaseURL }, persistence: { redis: { url: redis.server.url } } });
      expect(kernel.provider().name).toBe('anthropic');
      expect(strategy(kernel)).toBe('rolling');
      expect(kernel.store().name).toBe('redis');
      expect(kernel.config.permissions?.mode).toBe('default');
      expect(kernel.config.sandbox).toEqual({ mode: 'required', network: false });
      expect(plugins(kernel)).toContain('audit-log');

      expect(await judge(kernel, 'Bash', { command: 'npm test' })).toBe('allow');
      expect(await judge(kernel, 'Bash', { command: 'git push origin main' })).toBe('deny');
      expect(await judge(kernel, 'Bash', { command: 'curl https://example.com' })).toBe('deny');
      expect(await judge(kernel, 'Bash', { command: 'git commit -m wip' })).toBe('ask');
      expect(await judge(kernel, 'Edit', { file_path: 'migrations/001_init.sql', old_string: 'a', new_string: 'b' })).toBe('deny');
      expect(await judge(kernel, 'Write', { file_path: 'migrations/002.sql', content: 'x' })).toBe('deny');
      expect(await judge(kernel, 'Edit', { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' })).toBe('ask');
      expect(await judge(kernel, 'Read', { file_path: 'prod.tfvars' })).toBe('deny');
      expect(await judge(kernel, 'Read', { file_path: 'src/app.ts' })).toBe('allow');

      llm.script({ turns: [{ reply: { text: 'Shared.' } }], fallback: { text: 'UNEXPECTED' } });
      const { session, result } = await prompt(kernel, 'hello team');
      expect(result.reason).toBe('completed');
      expect(await redis.admin.type(`acme-web:s:{${session.info.id}}:events`)).toBe('stream');
      expect(await redis.admin.ttl(`acme-web:s:{${session.info.id}}:events`)).toBeGreaterThan(604800 - 60);
    });
  });

  it('local only with Ollama: the openai provider on a local base URL, no Anthropic, plan mode; one prompt', async () => {
    const { kernel, dir } = await boot('local-ollama', { provider: { baseURL: llm.server.openaiBaseURL } });
    expect(kernel.provider().name).toBe('openai');
    expect(plugins(kernel)).not.toContain('provider-anthropic');
    expect(plugins(kernel)).not.toContain('telemetry-otlp');
    expect(kernel.config.permissions?.mode).toBe('plan');
    expect(strategy(kernel)).toBe('compaction');
    expect(kernel.store().name).toBe('jsonl');
    expect(kernel.budget.price('openai', 'qwen2.5-coder:14b')).toMatchObject({ input: 0, output: 0 });

    llm.script({
      turns: [
        { name: 'look', reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'README.md' } }, { id: 'w1', name: 'Write', input: { file_path: 'PLAN.md', content: '# plan\n' } }] } },
        { name: 'plan', when: { toolResultFor: 'w1' }, reply: { text: 'Plan: add a test first.' } },
      ],
      fallback: { text: 'UNEXPECTED' },
    });
    const { result, session } = await prompt(kernel, 'plan the change');
    expect(result).toMatchObject({ reason: 'completed', text: 'Plan: add a test first.' });
    expect(llm.server.requests.map((r) => [r.path, r.body.model])).toEqual([
      ['/v1/chat/completions', 'qwen2.5-coder:14b'],
      ['/v1/chat/completions', 'qwen2.5-coder:14b'],
    ]);
    const results = session.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results.map((r) => [r.toolCallId, r.isError ?? false])).toEqual([
      ['r1', false],
      ['w1', true],
    ]);
    expect(() => readFileSync(join(dir, 'PLAN.md'))).toThrow();
  });

  it('CI headless: no UI, sessions kept in the workspace, and the fixed allow-list decides (through the built CLI)', async () => {
    const { kernel, dir, env } = await boot('ci-headless', { provider: { baseURL: llm.server.anthropicBaseURL } });
    expect(plugins(kernel)).not.toContain('ui-terminal');
    expect(kernel.provider().name).toBe('anthropic');
    expect(strategy(kernel)).toBe('compaction');
    expect(kernel.store().name).toBe('jsonl');
    expect(kernel.config.limits).toMatchObject({ maxTurns: 40, maxCostUsd: 3, maxToolFailures: 5 });

    llm.script({ turns: [{ reply: { text: 'CI done.' } }], fallback: { text: 'UNEXPECTED' } });
    const { session, result } = await prompt(kernel, 'fix the build');
    expect(result.reason).toBe('completed');
    const files = readdirSync(join(dir, '.assistant-ci/sessions'), { recursive: true }).map(String);
    expect(files.some((f) => f.endsWith(`${session.info.id}.jsonl`))).toBe(true);

    const calls = [
      { tool: 'Read', input: { file_path: 'README.md' } },
      { tool: 'Edit', input: { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' } },
      { tool: 'Bash', input: { command: 'npm test' } },
      { tool: 'Bash', input: { command: 'npm run lint' } },
      { tool: 'Edit', input: { file_path: 'package.json', old_string: 'a', new_string: 'b' } },
      { tool: 'Bash', input: { command: 'npm install left-pad' } },
      { tool: 'Bash', input: { command: 'git push origin main' } },
    ];
    const r = await runCli(['--trust-project', 'permissions', 'check', '--batch', '-', '--headless'], { cwd: dir, env, input: calls.map((c) => JSON.stringify(c)).join('\n') + '\n' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const decisions = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { behavior: string; effective?: string });
    expect(decisions.map((d) => d.effective ?? d.behavior)).toEqual(['allow', 'allow', 'allow', 'allow', 'deny', 'deny', 'deny']);
  });
});
