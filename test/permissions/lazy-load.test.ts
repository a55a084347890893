// The permission engine (request facts, the shell parser and its specs, rule matching, each layer's
// module) is imported at the first decision, not at start (issue #18). A child process boots the
// built CLI's kernel with a module-load hook and reports which modules of plugins/permissions it
// loaded; a copy of dist/ with an engine file deleted (from tsc's tree, or the bundle's part holding
// the engine) shows that a failed import denies, bypass too.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { gitProject, jsonLines, sharedFakeLlm } from '../e2e/support.js';
import { runNode, writeModuleLogHook } from './module-log.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(REPO, 'dist');
const ENGINE_FAILED = 'ASSISTANT_PERMISSION_ENGINE_FAILED';

/** What start-up may load of plugins/permissions: the entries, their options, rule parsing (bad rules fail the start) and the taps. */
const EAGER = [
  'index.js', 'errors.js', 'add-dir.js', 'check-command.js',
  'guard/index.js', 'rules/index.js', 'mode/index.js', 'classifier/index.js', 'classifier/lockset.js', 'grants/index.js', 'ask/index.js',
  'policy/options.js', 'policy/policy.js', 'policy/shared.js', 'policy/lazy.js', 'policy/local-settings.js',
  'policy/rules/parse.js', 'policy/rules/domain.js', 'policy/rules/mcp.js',
  'policy/paths/resolve.js', 'policy/paths/secrets.js', 'policy/paths/protected.js',
];

/** Boots the kernel of dist/ (argv[2]) in the project (cwd), judges calls, and prints what it loaded and decided. */
const CHILD = `import { readFileSync } from 'node:fs';
const dist = process.argv[2];
const permissionModules = () => [...new Set(readFileSync(process.env.LOADED_LOG, 'utf8').split('\\n'))]
  .map((url) => url.split('/dist/plugins/permissions/')[1]).filter(Boolean).sort();
const { loadConfig } = await import(dist + '/config/load.js');
const { createKernel } = await import(dist + '/core/kernel/kernel.js');
const { decidePermission, permissionRequestFor } = await import(dist + '/core/index.js');
const kernel = await createKernel({ config: await loadConfig({ cwd: process.cwd(), env: process.env, noUserConfig: true }), headless: true, logLevel: 'silent' });
await kernel.start();
const scope = { projectRoot: kernel.projectRoot, cwd: kernel.cwd };
const lock = (command) => kernel.hooks.lockSet.call({ type: 'tool_call', id: 'l', name: 'Bash', input: { command } }, kernel.tools.get('Bash'), scope) ?? null;
const decide = async ([tool, input, mode], i) => {
  const call = { type: 'tool_call', id: 'c' + i, name: tool, input };
  const { behavior, layer, reason, suggestedRule } = await decidePermission(kernel.hooks, permissionRequestFor(kernel.tools.get(tool), call, { ...scope, mode, headless: true }));
  return { behavior, layer, reason, suggestedRule };
};
const atStart = permissionModules();
const lockAtStart = lock('git status');
const calls = JSON.parse(process.argv[3]);
// All at once: concurrent first decisions share the one import.
const first = await Promise.all(calls.map(decide));
// And once more, after the first import finished (or failed).
const again = await Promise.all(calls.map(decide));
process.stdout.write(JSON.stringify({ atStart, lockAtStart, first, again, after: permissionModules(), lockAfter: lock('git status') }));
process.exit(0);
`;

type Call = [tool: string, input: Record<string, unknown>, mode: string];
interface Decision {
  behavior: string;
  layer: string;
  reason: string;
  suggestedRule?: string;
}
interface Report {
  atStart: string[];
  lockAtStart: unknown;
  first: Decision[];
  again: Decision[];
  after: string[];
  lockAfter: unknown;
}

const CALLS: Call[] = [
  ['Bash', { command: 'rm -rf /' }, 'bypass'],
  ['Read', { file_path: '.env' }, 'bypass'],
  ['Bash', { command: 'ls src' }, 'default'],
  ['Read', { file_path: 'src/a.ts' }, 'default'],
  ['Bash', { command: 'touch made.txt' }, 'bypass'],
  ['Bash', { command: 'npm publish' }, 'default'],
];

/** Runs the child against `dist` and returns its report. */
async function report(dist: string): Promise<Report> {
  const dir = tempDir('assistant-lazy-');
  const register = writeModuleLogHook(dir);
  writeFileSync(join(dir, 'child.mjs'), CHILD);
  const root = makeProject({ '.assistantrc': '{}', 'src/a.ts': 'export const a = 1;\n', '.env': 'KEY=secret\n' });
  const env = isolatedEnv({ LOADED_LOG: join(dir, 'loaded.log') });
  return JSON.parse(await runNode(['--import', register, join(dir, 'child.mjs'), dist, JSON.stringify(CALLS)], { cwd: root, env })) as Report;
}

/** A copy of dist/ beside the repository's node_modules and package.json. */
function distCopy(): string {
  const top = tempDir('assistant-broken-dist-');
  cpSync(DIST, join(top, 'dist'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(top, 'package.json'));
  symlinkSync(join(REPO, 'node_modules'), join(top, 'node_modules'), 'dir');
  return join(top, 'dist');
}

/** A copy of dist/ with one engine file deleted from tsc's tree, and without the runtime bundle, so the CLI runs tsc's tree. */
function brokenTree(): string {
  const dist = distCopy();
  rmSync(join(dist, 'plugins/permissions/policy/shell/walk.js'));
  rmSync(join(dist, 'bundle'), { recursive: true });
  return dist;
}

/** A copy of dist/ whose bundle lacks the part holding the engine (dist/bundle/runtime-permissions.cjs): runtime.cjs is whole. */
function brokenBundle(): string {
  const dist = distCopy();
  const bundle = join(dist, 'bundle');
  const holders = readdirSync(bundle)
    .filter((file) => file.endsWith('.map'))
    .filter((map) => (JSON.parse(readFileSync(join(bundle, map), 'utf8')) as { sources: string[] }).sources.some((source) => source.endsWith('/plugins/permissions/policy/shell/walk.ts')));
  expect(holders, 'the bundle file holding the shell walker').toEqual(['runtime-permissions.cjs.map']);
  rmSync(join(bundle, 'runtime-permissions.cjs'));
  return dist;
}

describe('the permissions plugin loads its engine at the first decision', () => {
  it('starts with the entries, options and rule parsing only; the first decisions (all at once) load the rest and decide as before', async () => {
    const r = await report(DIST);
    expect(r.atStart.filter((file) => !EAGER.includes(file))).toEqual([]);
    expect(r.atStart).toContain('policy/rules/parse.js');
    // The scheduler's lock set abstains (write everything) until a decision loaded the engine.
    expect(r.lockAtStart).toBeNull();
    for (const file of ['policy/engine.js', 'policy/facts.js', 'policy/shell/walk.js', 'policy/shell/specs/git.js', 'policy/rules/match.js', 'policy/suggest.js', 'guard/guard.js', 'mode/mode.js', 'classifier/classify.js', 'ask/fallback.js'])
      expect(r.after).toContain(file);
    for (const decisions of [r.first, r.again]) {
      const [rm, env, ls, read, touch, publish] = decisions;
      expect(rm).toMatchObject({ behavior: 'deny', layer: 'guard' });
      expect(env).toMatchObject({ behavior: 'deny', layer: 'guard' });
      expect(ls).toMatchObject({ behavior: 'allow', layer: 'classifier' });
      expect(read).toMatchObject({ behavior: 'allow' });
      expect(touch).toMatchObject({ behavior: 'allow', layer: 'mode' });
      // The ask layer's own reason and suggestion, not the kernel's bare "no rule allows this call".
      expect(publish).toMatchObject({ behavior: 'ask', layer: 'default', suggestedRule: expect.stringMatching(/^Bash\(npm publish/) });
      expect(publish!.reason).not.toBe('no rule allows this call');
    }
    expect(r.lockAfter).toEqual({ reads: [expect.any(String)], writes: [] });
  });

  it('denies every call with ASSISTANT_PERMISSION_ENGINE_FAILED when the engine cannot be imported, in default and bypass mode', async () => {
    const r = await report(brokenTree());
    // Start-up never needed the missing file.
    expect(r.atStart.filter((file) => !EAGER.includes(file))).toEqual([]);
    for (const decision of [...r.first, ...r.again]) {
      expect(decision).toMatchObject({ behavior: 'deny', layer: 'permissions' });
      expect(decision.reason).toContain(`${ENGINE_FAILED}: the permission engine could not be loaded`);
    }
    expect(r.lockAfter).toBeNull();
  });
});

describe('the built CLI with a broken engine', () => {
  const fake = sharedFakeLlm();

  it.each([
    ['bypass', 'tsc tree', brokenTree],
    ['default', 'tsc tree', brokenTree],
    ['bypass', 'bundle', brokenBundle],
    ['default', 'bundle', brokenBundle],
  ])('never runs a command in %s mode (engine missing from the %s): the call is denied with the code, and the run goes on', async (mode, _where, broken) => {
    const bin = join(broken(), 'bin/assistant.cjs');
    fake.script({
      turns: [
        { name: 'touch', when: { userText: 'make it' }, reply: { toolCalls: [{ id: 't1', name: 'Bash', input: { command: 'touch made.txt' } }] } },
        { name: 'answer', when: { toolResultFor: 't1' }, reply: { text: 'Could not.' } },
      ],
    });
    const dir = gitProject({ 'README.md': '# project\n' });
    const env = isolatedEnv({ ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL });
    const r = await runCli(['-p', '--trust-project', 'make it', '--permission-mode', mode, '--output-format', 'stream-json'], { cwd: dir, env, bin });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dir, 'made.txt'))).toBe(false);
    const decision = jsonLines(r.stdout).find((l) => l.type === 'permission' && l.call_id === 't1');
    expect(decision).toMatchObject({ behavior: 'deny', layer: 'permissions' });
    expect(decision!.reason).toContain(ENGINE_FAILED);
    expect(jsonLines(r.stdout).find((l) => l.type === 'tool_result' && l.id === 't1')).toMatchObject({ is_error: true });
  });
});
