import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { decidePermission, permissionRequestFor, projectDataDir, resolveApprovals, type Kernel, type PermissionMode, type PermissionRequest } from '../../dist/core/index.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { shellParserReady } from '../../dist/plugins/permissions/policy/shell/parser.js';
import { inputDigest } from '../../dist/plugins/permissions/audit.js';
import { policyFixture, type PolicyFixture } from './support.js';

let fixture: PolicyFixture;
let kernel: Kernel;

async function boot(f: PolicyFixture, headless = false): Promise<Kernel> {
  const config = await loadConfig({ cwd: f.root, env: f.env, noUserConfig: true });
  const k = await createKernel({ config, headless, logLevel: 'silent' });
  await k.start();
  return k;
}

function request(k: Kernel, tool: string, input: Record<string, unknown>, mode: PermissionMode = 'default', sessionId?: string): PermissionRequest {
  const definition = k.tools.get(tool)!;
  return permissionRequestFor(definition, { type: 'tool_call', id: `call-${Math.random()}`, name: tool, input }, { projectRoot: k.projectRoot, cwd: k.cwd, mode, headless: false, sessionId });
}

beforeAll(async () => {
  fixture = policyFixture();
  // The plugin reads HOME and the data directory from the environment, as the CLI does.
  Object.assign(process.env, { HOME: fixture.env.HOME, ASSISTANT_DATA_DIR: fixture.env.ASSISTANT_DATA_DIR });
  kernel = await boot(fixture);
});

describe('permission engine in the kernel', () => {
  it('loads the shell grammar lazily: not at import or apply, only at the first shell judgement', async () => {
    expect(shellParserReady()).toBe(false);
    const bash = kernel.tools.get('Bash')!;
    // Before any judgement the lock set abstains (the tool's own: write everything).
    expect(kernel.hooks.lockSet.call({ type: 'tool_call', id: '1', name: 'Bash', input: { command: 'ls' } }, bash, { projectRoot: kernel.projectRoot, cwd: kernel.cwd })).toBeUndefined();
    await decidePermission(kernel.hooks, request(kernel, 'Read', { file_path: 'src/a.ts' }));
    expect(shellParserReady()).toBe(false);
    await decidePermission(kernel.hooks, request(kernel, 'Bash', { command: 'ls' }));
    expect(shellParserReady()).toBe(true);
  });

  it('proves read-only commands to the scheduler through lockSet, and only those', () => {
    const bash = kernel.tools.get('Bash')!;
    const lock = (command: string) => kernel.hooks.lockSet.call({ type: 'tool_call', id: '1', name: 'Bash', input: { command } }, bash, { projectRoot: kernel.projectRoot, cwd: kernel.cwd });
    expect(lock('git status && grep -rn TODO src | head')).toEqual({ reads: [kernel.projectRoot], writes: [] });
    for (const command of ['rm x', 'ls > out.txt', 'cat ../outside.txt', 'cd / && ls', 'echo $(whoami)', 'npm test', 'curl https://x', 'cat $FILE'])
      expect(lock(command), command).toBeUndefined();
    const read = kernel.tools.get('Read')!;
    expect(kernel.hooks.lockSet.call({ type: 'tool_call', id: '2', name: 'Read', input: { file_path: 'x' } }, read, { projectRoot: kernel.projectRoot, cwd: kernel.cwd })).toBeUndefined();
  });

  it('records "yes for this session" as a session grant and "always" in the local settings file', async () => {
    const session = await openSession(kernel.hooks, { projectRoot: kernel.projectRoot, mode: 'default' });
    kernel.session = session;
    try {
      const build = request(kernel, 'Bash', { command: 'npm run build' }, 'default', session.info.id);
      const deploy = request(kernel, 'Bash', { command: 'make deploy' }, 'default', session.info.id);
      const first = [await decidePermission(kernel.hooks, build), await decidePermission(kernel.hooks, deploy)];
      expect(first.map((d) => [d.behavior, d.suggestedRule])).toEqual([
        ['ask', 'Bash(npm run build:*)'],
        ['ask', 'Bash(make deploy:*)'],
      ]);
      kernel.hooks.approval.tapPromise('test-ui', async (pending) => {
        expect(pending).toHaveLength(2);
        return [
          { behavior: 'allow', scope: 'session' },
          { behavior: 'allow', scope: 'project' },
        ];
      });
      const answers = await resolveApprovals(kernel.hooks, [
        { request: build, decision: first[0]! },
        { request: deploy, decision: first[1]! },
      ], false);
      expect(answers.map((a) => a.behavior)).toEqual(['allow', 'allow']);
      expect(session.grants.map((g) => g.rule)).toEqual(['Bash(npm run build:*)']);

      const again = await decidePermission(kernel.hooks, request(kernel, 'Bash', { command: 'npm run build -- --prod' }, 'default', session.info.id));
      expect(again).toMatchObject({ behavior: 'allow', layer: 'grants' });
      const always = await decidePermission(kernel.hooks, request(kernel, 'Bash', { command: 'make deploy' }));
      expect(always).toMatchObject({ behavior: 'allow', layer: 'rules' });

      const settings = JSON.parse(readFileSync(join(fixture.root, '.assistant/settings.local.json'), 'utf8'));
      expect(settings).toEqual({ permissions: { allow: ['Bash(make deploy:*)'] } });
      expect(readFileSync(join(fixture.root, '.assistant/.gitignore'), 'utf8')).toBe('settings.local.json\n');
      // The shared config is never touched.
      expect(JSON.parse(readFileSync(join(fixture.root, '.assistantrc'), 'utf8')).permissions).toBeUndefined();
      // A grant never reaches past the plan-mode refusal.
      expect(await decidePermission(kernel.hooks, request(kernel, 'Bash', { command: 'npm run build' }, 'plan', session.info.id))).toMatchObject({ behavior: 'deny', layer: 'mode' });
    } finally {
      kernel.session = undefined;
    }
  });

  it('writes every decision and answer to the audit log with tool, input digest, layer and outcome', async () => {
    const sessionId = 'audit-session';
    const req = request(kernel, 'Bash', { command: 'rm -rf /' }, 'bypass', sessionId);
    const decision = await decidePermission(kernel.hooks, req);
    // The tool pipeline announces each decision as a `permission` event.
    kernel.hooks.event.call({ type: 'permission', request: req, decision, sessionId });
    const asked = request(kernel, 'Bash', { command: 'touch x' }, 'default', sessionId);
    const askDecision = await decidePermission(kernel.hooks, asked);
    kernel.hooks.event.call({ type: 'permission', request: asked, decision: askDecision, sessionId });
    await resolveApprovals(kernel.hooks, [{ request: asked, decision: askDecision }], true);

    const file = join(projectDataDir(kernel.projectRoot), 'audit', `${sessionId}.jsonl`);
    const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ event: 'decision', sessionId, tool: 'Bash', mode: 'bypass', layer: 'guard', behavior: 'deny', inputDigest: inputDigest({ command: 'rm -rf /' }) });
    expect(records[1]).toMatchObject({ event: 'decision', layer: 'default', behavior: 'ask' });
    expect(records[2]).toMatchObject({ event: 'approval', behavior: 'ask', answer: { behavior: 'deny', scope: 'once' } });
    expect(records[0].inputDigest).toMatch(/^sha256:[0-9a-f]{32}$/);
    expect(inputDigest({ a: 1, b: [2, { c: 3, d: 4 }] })).toBe(inputDigest({ b: [2, { d: 4, c: 3 }], a: 1 }));
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: 2 }));
    expect(readdirSync(join(projectDataDir(kernel.projectRoot), 'audit'))).toContain(`${sessionId}.jsonl`);
  });

  it('keeps grants in memory when no session is open, and leaves no audit when disabled', async () => {
    const quiet = policyFixture({ permissions: { audit: false } });
    Object.assign(process.env, { HOME: quiet.env.HOME, ASSISTANT_DATA_DIR: quiet.env.ASSISTANT_DATA_DIR });
    const k = await boot(quiet);
    const req = request(k, 'Bash', { command: 'make lint-all' });
    const decision = await decidePermission(k.hooks, req);
    k.hooks.event.call({ type: 'permission', request: req, decision });
    k.hooks.approval.tap('ui', () => [{ behavior: 'allow', scope: 'session' }]);
    await resolveApprovals(k.hooks, [{ request: req, decision }], false);
    expect(await decidePermission(k.hooks, request(k, 'Bash', { command: 'make lint-all' }))).toMatchObject({ behavior: 'allow', layer: 'grants' });
    expect(existsSync(join(projectDataDir(k.projectRoot), 'audit'))).toBe(false);
  });

  it('fails closed: malformed requests and throwing policies are denials', async () => {
    const decision = await decidePermission(kernel.hooks, { ...request(kernel, 'Bash', { command: 'ls' }), command: 42 as unknown as string });
    expect(decision).toMatchObject({ behavior: 'deny', layer: 'guard', reason: expect.stringContaining('not a string') });
    const broken = await boot(fixture);
    broken.hooks.permission.tapPromise({ name: 'broken-policy', stage: -2000 }, async () => {
      throw new Error('boom');
    });
    const denied = await decidePermission(broken.hooks, request(broken, 'Read', { file_path: 'src/a.ts' }));
    expect(denied).toMatchObject({ behavior: 'deny', layer: 'broken-policy' });
    expect(denied.reason).toContain('boom');
  });
});
