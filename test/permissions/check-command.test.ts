import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { policyFixture, type PolicyFixture } from './support.js';

let fixture: PolicyFixture;
const check = (args: string[], input?: string) => runCli(['permissions', 'check', '--trust-project', ...args], { cwd: fixture.root, env: fixture.env, input });

beforeAll(() => {
  fixture = policyFixture({ permissions: { mode: 'acceptEdits', allow: ['Bash(npm run build:*)'] } });
});

describe('assistant permissions check', () => {
  it('prints the decision, the deciding layer and the reason', async () => {
    const blocked = await check(['--tool', 'Bash', '--input', '{"command":"rm -rf /"}', '--mode', 'bypass']);
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toMatch(/^deny {2}\[guard\] {2}blocked: `rm -r` of \/ \(a system directory\)/);

    const allowed = await check(['--tool', 'Bash', '--input', '{"command":"git status && ls -la"}']);
    expect(allowed.stdout).toBe('allow  [classifier]  every command only reads inside the project\n');

    const asked = await check(['--tool', 'Bash', '--input', '{"command":"npm install left-pad"}', '--mode', 'default']);
    expect(asked.stdout).toMatch(/^ask {2}\[default\] {2}`npm install` installs or changes packages \(network\)\n/);
    expect(asked.stdout).toContain('would allow: Bash(npm install:*)');
  });

  it('uses the configured mode unless --mode is given', async () => {
    const configured = await check(['--tool', 'Edit', '--input', '{"file_path":"src/a.ts","old_string":"a","new_string":"b"}']);
    expect(configured.stdout).toMatch(/^allow {2}\[mode\] {2}acceptEdits mode/);
    const plan = await check(['--tool', 'Edit', '--input', '{"file_path":"src/a.ts","old_string":"a","new_string":"b"}', '--mode', 'plan']);
    expect(plan.stdout).toMatch(/^deny {2}\[mode\] {2}plan mode is read-only/);
  });

  it("lets the agent change its own plan (the state category) in every mode, headless too, unless a rule denies it", async () => {
    const todo = ['--tool', 'TodoWrite', '--input', '{"todos":[]}', '--headless'];
    for (const mode of ['default', 'plan', 'acceptEdits', 'bypass']) {
      const decided = await check([...todo, '--mode', mode]);
      expect(decided.stdout).toMatch(/^allow {2}\[mode\] {2}TodoWrite changes only the agent's own plan/);
    }
    const strict = policyFixture({ permissions: { mode: 'plan', deny: ['TodoWrite'] } });
    const denied = await runCli(['permissions', 'check', '--trust-project', ...todo], { cwd: strict.root, env: strict.env });
    expect(denied.stdout).toMatch(/^deny {2}\[rules\]/);
  });

  it('judges input the pipeline would refuse as refused: the schema is checked before any policy', async () => {
    const grep = await check(['--tool', 'Grep', '--input', '{"pattern":5}', '--json']);
    expect(JSON.parse(grep.stdout)).toMatchObject({ behavior: 'deny', layer: 'validate' });
    expect(JSON.parse(grep.stdout).reason).toMatch(/pattern/);
    const extra = await check(['--tool', 'Bash', '--input', '{"command":"ls","no_such_field":true}', '--json']);
    expect(JSON.parse(extra.stdout)).toMatchObject({ behavior: 'deny', layer: 'validate' });
    const wrongType = await check(['--tool', 'Edit', '--input', '{"file_path":"src/a.ts","replace_all":"yes"}', '--json']);
    expect(JSON.parse(wrongType.stdout)).toMatchObject({ behavior: 'deny', layer: 'validate' });
    // Only what the policy looks at needs to be given: a partial Edit is judged on its path.
    const partial = await check(['--tool', 'Edit', '--input', '{"file_path":"src/a.ts"}', '--json']);
    expect(JSON.parse(partial.stdout)).toMatchObject({ behavior: 'allow', layer: 'mode' });
  });

  it('prints JSON with --json and shows the headless outcome with --headless', async () => {
    const json = await check(['--tool', 'Bash', '--input', '{"command":"curl https://example.com"}', '--mode', 'default', '--json', '--headless']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      tool: 'Bash',
      behavior: 'ask',
      layer: 'default',
      reason: '`curl` reaches the network',
      suggestedRule: 'Bash(curl https://example.com)',
      effective: 'deny',
    });
    const text = await check(['--tool', 'Bash', '--input', '{"command":"curl https://example.com"}', '--mode', 'default', '--headless']);
    expect(text.stdout).toMatch(/^ask \(headless: denied\)/);
  });

  it('explains usage errors with a stable code and exit status 2', async () => {
    const missing = await check(['--tool', 'Bash']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ASSISTANT_USAGE: permissions check needs --tool and --input');
    const badJson = await check(['--tool', 'Bash', '--input', '{command: ls}']);
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain('ASSISTANT_USAGE: --input is not JSON');
    const unknown = await check(['--tool', 'Bsh', '--input', '{}']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no tool named "Bsh" is registered \(tools: Bash, Edit, .*\)/);
    const mode = await check(['--tool', 'Bash', '--input', '{"command":"ls"}', '--mode', 'yolo']);
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('unknown permission mode "yolo"');
    const array = await check(['--tool', 'Bash', '--input', '["ls"]']);
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('"input" must be a JSON object');
  });

  it('--batch: one decision per line, in order, from a file or stdin; bad lines get an error line and exit 2', async () => {
    const lines = [
      JSON.stringify({ tool: 'Bash', input: { command: 'ls' } }),
      '',
      'not json',
      JSON.stringify({ tool: 'Edit', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, mode: 'plan' }),
      JSON.stringify({ tool: 'Nope', input: {} }),
      JSON.stringify({ tool: 'Bash', input: { command: 'npm run build' } }),
    ];
    const file = join(fixture.root, 'requests.jsonl');
    writeFileSync(file, lines.join('\n'));
    for (const result of [await check(['--batch', file]), await check(['--batch', '-'], lines.join('\n'))]) {
      expect(result.code).toBe(2);
      const out = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(out.map((o) => o.line)).toEqual([1, 3, 4, 5, 6]);
      expect(out[0]).toMatchObject({ tool: 'Bash', behavior: 'allow', layer: 'classifier' });
      expect(out[1]).toMatchObject({ code: 'ASSISTANT_USAGE' });
      expect(out[2]).toMatchObject({ tool: 'Edit', behavior: 'deny', layer: 'mode' });
      expect(out[3].error).toContain('no tool named "Nope"');
      expect(out[4]).toMatchObject({ behavior: 'allow', layer: 'rules' });
    }
    const clean = await check(['--batch', '-'], lines[0]);
    expect(clean.code).toBe(0);
    const missingFile = await check(['--batch', join(fixture.root, 'nope.jsonl')]);
    expect(missingFile.code).toBe(2);
    expect(missingFile.stderr).toContain('cannot read the batch file');
  });

  it('shows the plugins and their hooks in `assistant plugins`', async () => {
    const result = await runCli(['plugins', '--json', '--trust-project'], { cwd: fixture.root, env: fixture.env });
    const listed = JSON.parse(result.stdout) as { name: string; source: string; hooks: string[] }[];
    const permissions = listed.find((p) => p.name === 'permissions')!;
    expect(permissions.source).toBe('built-in (permissions/index.js)');
    expect(permissions.hooks).toEqual(['commands']); // decisions are audited by the audit-log plugin
    // The layers are plugins of their own (the classifier also proves read-only commands to the scheduler).
    const classifier = listed.find((p) => p.name === 'permission-classifier')!;
    expect(classifier.source).toBe('built-in (permissions/classifier/index.js)');
    expect(classifier.hooks).toEqual(expect.arrayContaining(['permission', 'lockSet']));
  });
});
