// Simple commands are judged without tree-sitter (mini-parser.ts): a child process with a
// module-load hook judges them through the engine (and the built CLI runs one end to end) and
// reports whether web-tree-sitter was loaded; a command outside the subset still loads it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { gitProject, jsonLines, sharedFakeLlm } from '../e2e/support.js';
import { runNode, writeModuleLogHook } from './module-log.js';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const TREE_SITTER = '/node_modules/web-tree-sitter/';

/** Boots the kernel, judges commands in order and prints, after each, the decision and whether tree-sitter was loaded. */
const CHILD = `import { readFileSync } from 'node:fs';
const dist = process.argv[2];
const treeSitter = () => readFileSync(process.env.LOADED_LOG, 'utf8').includes(${JSON.stringify(TREE_SITTER)});
const { loadConfig } = await import(dist + '/config/load.js');
const { createKernel } = await import(dist + '/core/kernel/kernel.js');
const { decidePermission, permissionRequestFor } = await import(dist + '/core/index.js');
const { analyzeShellSync } = await import(dist + '/plugins/permissions/policy/shell/analyze.js');
const kernel = await createKernel({ config: await loadConfig({ cwd: process.cwd(), env: process.env, noUserConfig: true }), headless: true, logLevel: 'silent' });
await kernel.start();
const scope = { projectRoot: kernel.projectRoot, cwd: kernel.cwd };
const options = { cwd: kernel.cwd, home: process.env.HOME, allowSudo: false, trustTests: false };
const steps = [];
for (const [kind, command] of JSON.parse(process.argv[3])) {
  if (kind === 'decide') {
    const call = { type: 'tool_call', id: 'c' + steps.length, name: 'Bash', input: { command } };
    const { behavior, layer, reason } = await decidePermission(kernel.hooks, permissionRequestFor(kernel.tools.get('Bash'), call, { ...scope, mode: 'default', headless: true }));
    steps.push({ command, behavior, layer, reason, treeSitter: treeSitter() });
  } else if (kind === 'lock') {
    const lock = kernel.hooks.lockSet.call({ type: 'tool_call', id: 'l', name: 'Bash', input: { command } }, kernel.tools.get('Bash'), scope) ?? null;
    steps.push({ command, lock, treeSitter: treeSitter() });
  } else {
    const analysis = analyzeShellSync(command, options) ?? null;
    steps.push({ command, analysis, treeSitter: treeSitter() });
  }
}
process.stdout.write(JSON.stringify({ steps, bare: treeSitter() }));
process.exit(0);
`;

interface Step {
  command: string;
  behavior?: string;
  layer?: string;
  reason?: string;
  lock?: unknown;
  analysis?: { commands: { name: string; writes: { arg: { value: string } }[] }[] } | null;
  treeSitter: boolean;
}

async function judgeInChild(steps: [kind: 'decide' | 'lock' | 'sync', command: string][]): Promise<Step[]> {
  const dir = tempDir('assistant-fast-path-');
  const register = writeModuleLogHook(dir);
  writeFileSync(join(dir, 'child.mjs'), CHILD);
  const root = makeProject({ '.assistantrc': '{}', 'src/a.ts': 'export const a = 1;\n' });
  const env = isolatedEnv({ LOADED_LOG: join(dir, 'loaded.log') });
  const stdout = await runNode(['--import', register, join(dir, 'child.mjs'), DIST, JSON.stringify(steps)], { cwd: root, env });
  return (JSON.parse(stdout) as { steps: Step[] }).steps;
}

describe('judging simple shell commands without tree-sitter', () => {
  it('judges `git status --short` (and proves it read-only to the scheduler) without loading web-tree-sitter; `> out.txt` loads it and is judged as a write', async () => {
    const [status, lock, payload, simplePayload, redirected, payloadAfter] = await judgeInChild([
      ['decide', 'git status --short'],
      ['lock', 'git status --short'],
      // base64 of `ls > out.txt`, piped into sh: the payload is outside the subset, so the synchronous judge is not ready.
      ['sync', 'echo bHMgPiBvdXQudHh0 | base64 -d | sh'],
      ['sync', 'sh -c ls'],
      ['decide', 'git status --short > out.txt'],
      ['sync', 'echo bHMgPiBvdXQudHh0 | base64 -d | sh'],
    ]);
    expect(status).toMatchObject({ behavior: 'allow', layer: 'classifier', treeSitter: false });
    expect(lock).toMatchObject({ lock: { reads: [expect.any(String)], writes: [] }, treeSitter: false });
    expect(payload).toMatchObject({ analysis: null, treeSitter: false });
    expect(simplePayload!.analysis!.commands.map((c) => c.name)).toEqual(['sh', 'ls']);
    expect(simplePayload!.treeSitter).toBe(false);
    expect(redirected).toMatchObject({ behavior: 'ask', treeSitter: true });
    expect(redirected!.reason).toContain('out.txt');
    const written = payloadAfter!.analysis!.commands.find((c) => c.name === 'ls');
    expect(written?.writes.map((w) => w.arg.value)).toEqual(['out.txt']);
  });
});

describe('the built CLI', () => {
  const fake = sharedFakeLlm();

  it('runs `git status --short` through the Bash tool without loading web-tree-sitter', async () => {
    fake.script({
      turns: [
        { name: 'status', when: { userText: 'what changed' }, reply: { toolCalls: [{ id: 's1', name: 'Bash', input: { command: 'git status --short' } }] } },
        { name: 'answer', when: { toolResultFor: 's1' }, reply: { text: 'Nothing much.' } },
      ],
    });
    const dir = gitProject({ 'README.md': '# project\n' });
    const hooks = tempDir('assistant-fast-path-cli-');
    const register = writeModuleLogHook(hooks);
    const log = join(hooks, 'loaded.log');
    writeFileSync(log, '');
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, LOADED_LOG: log, NODE_OPTIONS: `--import ${register}` });
    const r = await runCli(['-p', '--trust-project', 'what changed', '--output-format', 'stream-json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.find((l) => l.type === 'permission' && l.call_id === 's1')).toMatchObject({ behavior: 'allow' });
    expect(lines.find((l) => l.type === 'tool_result' && l.id === 's1')).toMatchObject({ is_error: false });
    const loaded = readFileSync(log, 'utf8');
    // The hook saw the CLI's own modules, so its silence about tree-sitter means something.
    expect(loaded).toContain('/dist/');
    expect(loaded).not.toContain(TREE_SITTER);
  });
});
