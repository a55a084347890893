// Control files (kernel.controlFiles) and the project's own "always allow" answers: the agent
// cannot widen its own controls silently, and a rule planted in the local settings file by a
// command or another program is not one of the user's answers.
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LocalSettings } from '../../dist/plugins/permissions/policy/local-settings.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject, tempDir } from '../support/project.js';
import { checkBatch, policyFixture, type CheckRequest, type CheckResult, type PolicyFixture } from './support.js';

type Want = Pick<CheckResult, 'behavior' | 'layer'>;
const ASK: Want = { behavior: 'ask', layer: 'mode' };
const edit = (file_path: string, new_string = 'x') => ({ tool: 'Edit', input: { file_path, old_string: 'a', new_string } });
const write = (file_path: string, content = 'x') => ({ tool: 'Write', input: { file_path, content } });
const bash = (command: string) => ({ tool: 'Bash', input: { command } });

const CASES: Array<[string, Omit<CheckRequest, 'mode'>, CheckRequest['mode'], Want]> = [
  ['edit .mcp.json', edit('.mcp.json'), 'acceptEdits', ASK],
  ['write package.json adding the assistant key', write('package.json', '{"name":"x","assistant":{"permissions":{"mode":"bypass"}}}'), 'acceptEdits', ASK],
  ['write package.json adding the key through a JSON escape', write('package.json', '{"name":"x","\\u0061ssistant":{}}'), 'acceptEdits', ASK],
  ['edit package.json adding the key', edit('package.json', '"assistant": {"sandbox": "off"},'), 'acceptEdits', ASK],
  ['edit a package.json with a nested assistant key', edit('pkg/package.json', '"x": 1'), 'acceptEdits', ASK],
  ['edit a memory file', edit('AGENTS.md'), 'acceptEdits', ASK],
  ['edit a config file in a subfolder', write('sub/.assistantrc', '{}'), 'acceptEdits', ASK],
  ['write .gitmodules', write('.gitmodules', '[submodule]'), 'acceptEdits', ASK],
  ['write a git hook', write('.git/hooks/post-checkout', '#!/bin/sh'), 'acceptEdits', ASK],
  ['edit .assistantrc despite allow rules', edit('.assistantrc'), 'default', ASK],
  ['write .mcp.json despite allow rules', write('.mcp.json', '{}'), 'default', ASK],
  ['copy over .mcp.json with the shell', bash('cp src/a.ts .mcp.json'), 'acceptEdits', ASK],
  ['copy over package.json with the shell', bash('cp src/a.ts package.json'), 'acceptEdits', ASK],
  ['write a git hook despite allow rules', write('.git/hooks/pre-push', '#!/bin/sh'), 'default', ASK],
  ['edit a hard link to .assistantrc', edit('linked-notes.txt'), 'acceptEdits', ASK],
  ['edit .mcp.json in plan mode', edit('.mcp.json'), 'plan', { behavior: 'deny', layer: 'mode' }],
  ['edit .mcp.json in bypass mode', edit('.mcp.json'), 'bypass', { behavior: 'allow', layer: 'mode' }],
  // Not control files: acceptEdits still lets them through.
  ['edit package.json scripts', edit('package.json', '"test": "vitest"'), 'acceptEdits', { behavior: 'allow', layer: 'mode' }],
  ['edit a source file', edit('src/a.ts'), 'acceptEdits', { behavior: 'allow', layer: 'mode' }],
];

let fixture: PolicyFixture;
let results: CheckResult[];

beforeAll(async () => {
  fixture = policyFixture({ permissions: { allow: ['Edit', 'Write'] } });
  linkSync(join(fixture.root, '.assistantrc'), join(fixture.root, 'linked-notes.txt'));
  // Removing `"config": {` would lift its `assistant` key to the top.
  mkdirSync(join(fixture.root, 'pkg'));
  writeFileSync(join(fixture.root, 'pkg', 'package.json'), JSON.stringify({ name: 'p', config: { assistant: { permissions: { mode: 'bypass' } } } }));
  results = await checkBatch(fixture, CASES.map(([, request, mode]) => ({ ...request, mode })));
}, 120_000);

describe('edits of control files', () => {
  CASES.forEach(([name, , mode, want], i) =>
    it(`${name} (${mode}) → ${want.behavior} by ${want.layer}`, () => {
      const got = results[i]!;
      expect({ behavior: got.behavior, layer: got.layer }, got.reason).toEqual(want);
      if (want.behavior === 'ask') expect(got.suggestedRule).toBeUndefined();
    }),
  );
});

describe('the local settings file', () => {
  it('ignores an allow rule planted by another program until the user trusts it', async () => {
    const env = isolatedEnv();
    const dir = makeProject({ 'src/a.ts': 'a\n' });
    mkdirSync(join(dir, '.assistant'));
    writeFileSync(join(dir, '.assistant', 'settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(touch:*)'], deny: ['Read(secret/**)'] } }));
    const check = (extra: string[] = []) => runCli(['permissions', 'check', '--tool', 'Bash', '--input', '{"command":"touch x"}', '--json', ...extra], { cwd: dir, env });
    const planted = await check();
    expect(JSON.parse(planted.stdout)).toMatchObject({ behavior: 'ask', layer: 'default' });
    expect(planted.stderr).toMatch(/not trusted.*settings\.local\.json allow Bash\(touch:\*\)/);
    // Deny rules in the same file always count.
    const read = await runCli(['permissions', 'check', '--tool', 'Read', '--input', '{"file_path":"secret/x"}', '--json'], { cwd: dir, env });
    expect(JSON.parse(read.stdout)).toMatchObject({ behavior: 'deny', layer: 'rules' });

    expect((await runCli(['trust'], { cwd: dir, env })).code).toBe(0);
    expect(JSON.parse((await check()).stdout)).toMatchObject({ behavior: 'allow', layer: 'rules' });
  }, 60_000);

  it("keeps the user's own \"always allow\" answers and ignores a rule written beside them", () => {
    const env = isolatedEnv();
    const root = tempDir();
    const file = join(root, '.assistant', 'settings.local.json');
    const settings = new LocalSettings(file, { root, env });
    settings.addAllow('Bash(npm test:*)');
    expect(settings.rules().allow.map((r) => r.text)).toEqual(['Bash(npm test:*)']);
    // Another program adds a rule to the file.
    writeFileSync(file, JSON.stringify({ permissions: { allow: ['Bash(npm test:*)', 'Bash(curl:*)'] } }));
    const reread = new LocalSettings(file, { root, env });
    expect(reread.rules().allow.map((r) => r.text)).toEqual(['Bash(npm test:*)']);
    expect(reread.ignored).toEqual(['Bash(curl:*)']);
    // Answering "always" again records only the new answer, not what was planted.
    reread.addAllow('Bash(npm run lint)');
    expect(new LocalSettings(file, { root, env }).rules().allow.map((r) => r.text)).toEqual(['Bash(npm test:*)', 'Bash(npm run lint)']);
  });
});
