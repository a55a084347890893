import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { decidePermission, permissionRequestFor, resolveApprovals, type Kernel, type PermissionMode, type PermissionRequest } from '../../dist/core/index.js';
import { openSession } from '../../dist/core/kits/agent/index.js';
import { shellParserReady } from '../../dist/plugins/permissions/policy/shell/parser.js';
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
  it('loads the shell grammar lazily: not at import or apply, only at the first shell judgement beyond the simple subset', async () => {
    expect(shellParserReady()).toBe(false);
    const bash = kernel.tools.get('Bash')!;
    // Before any judgement the lock set abstains (the tool's own: write everything).
    expect(kernel.hooks.lockSet.call({ type: 'tool_call', id: '1', name: 'Bash', input: { command: 'ls' } }, bash, { projectRoot: kernel.projectRoot, cwd: kernel.cwd })).toBeUndefined();
    await decidePermission(kernel.hooks, request(kernel, 'Read', { file_path: 'src/a.ts' }));
    expect(shellParserReady()).toBe(false);
    // A simple command is judged by the mini parser: still no grammar.
    await decidePermission(kernel.hooks, request(kernel, 'Bash', { command: 'ls' }));
    expect(shellParserReady()).toBe(false);
    await decidePermission(kernel.hooks, request(kernel, 'Bash', { command: 'ls > out.txt' }));
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
    const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default' });
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

  it('keeps grants in memory when no session is open', async () => {
    const quiet = policyFixture({});
    Object.assign(process.env, { HOME: quiet.env.HOME, ASSISTANT_DATA_DIR: quiet.env.ASSISTANT_DATA_DIR });
    const k = await boot(quiet);
    const req = request(k, 'Bash', { command: 'make lint-all' });
    const decision = await decidePermission(k.hooks, req);
    k.hooks.event.call({ type: 'permission', request: req, decision });
    k.hooks.approval.tap('ui', () => [{ behavior: 'allow', scope: 'session' }]);
    await resolveApprovals(k.hooks, [{ request: req, decision }], false);
    expect(await decidePermission(k.hooks, request(k, 'Bash', { command: 'make lint-all' }))).toMatchObject({ behavior: 'allow', layer: 'grants' });
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
