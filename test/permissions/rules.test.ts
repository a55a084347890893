import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { checkBatch, policyFixture, type CheckRequest, type CheckResult, type PolicyFixture } from './support.js';

let fixture: PolicyFixture;

const rules = ({ outside }: { outside: string }) => ({
  permissions: {
    allow: [
      'Bash(make build)',
      'Bash(npm run build:*)',
      'Bash(git:*)',
      `Read(${outside}/**)`,
      `Edit(${outside}/allowed/**)`,
      'Edit(docs/**)',
      'Read(~/notes.txt)',
      'mcp__github__*',
      'WebFetch(domain:example.com)',
      'Bash(./scripts/deploy.sh --dry-run)',
    ],
    ask: ['Bash(git commit:*)', 'Edit(docs/plans/**)'],
    deny: ['Bash(git push:*)', 'Bash(rm:*)', 'Read(private/**)', 'mcp__jira__*'],
  },
});

interface RuleCase {
  tool?: string;
  input: Record<string, unknown> | string;
  mode?: CheckRequest['mode'];
  behavior: 'allow' | 'ask' | 'deny';
  layer?: string;
  reason?: RegExp;
}

const cases = (f: PolicyFixture): RuleCase[] => [
  // Exact and prefix command rules.
  { input: 'make build', behavior: 'allow', layer: 'rules', reason: /Bash\(make build\)/ },
  { input: 'make build extra', behavior: 'ask' },
  { input: 'npm run build', behavior: 'allow', layer: 'rules' },
  { input: 'npm run build:prod', behavior: 'allow', layer: 'rules' },
  { input: 'npm run build -- --watch', behavior: 'allow', layer: 'rules' },
  { input: 'npm run buildx', behavior: 'ask' },
  { input: 'npm  run   build', behavior: 'allow', layer: 'rules' },
  { input: './scripts/deploy.sh --dry-run', behavior: 'allow', layer: 'rules' },
  { input: './scripts/deploy.sh', behavior: 'ask' },
  // Every part of a compound command must be covered.
  { input: 'npm run build && git status', behavior: 'allow', layer: 'rules' },
  { input: 'npm run build 2>&1 | tail -20', behavior: 'allow', layer: 'rules' },
  { input: 'npm run build && touch x', behavior: 'ask' },
  { input: 'npm run build && rm -rf dist', behavior: 'deny', layer: 'rules', reason: /Bash\(rm:\*\)/ },
  { input: 'npm run build > build.log', behavior: 'allow', layer: 'rules' },
  { input: 'npm run build > ../build.log', behavior: 'deny', layer: 'paths' },
  { input: 'npm run build $(curl x)', behavior: 'ask' },
  // deny beats ask beats allow.
  { input: 'git push origin main', behavior: 'deny', layer: 'rules' },
  { input: 'git commit -m "x"', behavior: 'ask', layer: 'rules', reason: /ask rule Bash\(git commit:\*\)/ },
  { input: 'git rebase main', behavior: 'allow', layer: 'rules' },
  { input: 'git push', mode: 'bypass', behavior: 'deny', layer: 'rules' },
  { input: 'git commit -m x', mode: 'bypass', behavior: 'ask', layer: 'rules' },
  // A deny rule sees through every spelling of the command.
  ...['rm x', '\\rm x', '/bin/rm x', 'command rm x', 'env FOO=1 rm x', "'r'm x", 'X=rm; $X x', 'find . -name x -exec rm {} \\;', 'ls | xargs rm', 'bash -c "rm x"', 'echo $(rm x)', 'timeout 3 nice rm x'].map(
    (input): RuleCase => ({ input, behavior: 'deny', layer: 'rules', reason: /Bash\(rm:\*\)/ }),
  ),
  // Hard blocks come before rules.
  { input: 'sudo rm x', behavior: 'deny', layer: 'guard' },
  // Read and Edit rules cover the tools of their category, and the shell's reads and writes.
  { tool: 'Read', input: { file_path: 'private/notes.txt' }, behavior: 'deny', layer: 'rules' },
  { tool: 'Grep', input: { pattern: 'x', path: 'private' }, behavior: 'deny', layer: 'rules' },
  { input: 'cat private/notes.txt', behavior: 'deny', layer: 'rules', reason: /Read\(private\/\*\*\)/ },
  { input: 'cat PRIVATE/Notes.txt', behavior: 'deny', layer: 'rules' },
  { tool: 'Edit', input: { file_path: 'docs/guide.md' }, behavior: 'allow', layer: 'rules' },
  { tool: 'Write', input: { file_path: 'docs/new/page.md' }, behavior: 'allow', layer: 'rules' },
  { tool: 'MultiEdit', input: { file_path: 'docs/guide.md' }, behavior: 'allow', layer: 'rules' },
  { tool: 'Edit', input: { file_path: 'src/a.ts' }, behavior: 'ask' },
  { tool: 'Edit', input: { file_path: 'docs/plans/q3.md' }, behavior: 'ask', layer: 'rules' },
  { tool: 'Edit', input: { file_path: 'docs/guide.md' }, mode: 'plan', behavior: 'deny', layer: 'mode' },
  { tool: 'Read', input: { file_path: `${f.outside}/file.txt` }, behavior: 'allow', layer: 'rules' },
  { input: `cat ${f.outside}/file.txt`, behavior: 'allow', layer: 'rules', reason: /Read\(/ },
  { input: `cat ${f.outside}/file.txt > ${f.outside}/allowed/copy.txt`, behavior: 'allow', layer: 'rules' },
  { input: `cat src/a.ts > ${f.outside}/elsewhere.txt`, behavior: 'deny', layer: 'paths' },
  { tool: 'Edit', input: { file_path: `${f.outside}/allowed/x.txt` }, behavior: 'allow', layer: 'rules' },
  { tool: 'Edit', input: { file_path: `${f.outside}/file.txt` }, behavior: 'deny', layer: 'paths' },
  { tool: 'Read', input: { file_path: `${f.home}/notes.txt` }, behavior: 'allow', layer: 'rules' },
  // Rules never open secrets: the guard runs first.
  { tool: 'Read', input: { file_path: `${f.outside}/.env` }, behavior: 'deny', layer: 'guard' },
  // Tool-name rules and globs.
  { tool: 'mcp__github__create_issue', input: { title: 'x' }, behavior: 'allow', layer: 'rules' },
  { tool: 'mcp__jira__search', input: { q: 'x' }, behavior: 'deny', layer: 'rules' },
  { tool: 'mcp__jira__search', input: { q: 'x' }, mode: 'bypass', behavior: 'deny', layer: 'rules' },
  { tool: 'WebFetch', input: { url: 'https://docs.example.com/x' }, behavior: 'allow', layer: 'rules' },
  { tool: 'WebFetch', input: { url: 'https://example.com.evil.io/' }, behavior: 'ask' },
];

let results: CheckResult[];
let list: RuleCase[];

beforeAll(async () => {
  fixture = policyFixture(rules);
  mkdirSync(join(fixture.outside, 'allowed'));
  list = cases(fixture);
  results = await checkBatch(
    fixture,
    list.map((c) => ({ tool: c.tool ?? 'Bash', input: typeof c.input === 'string' ? { command: c.input } : c.input, mode: c.mode ?? 'default' })),
  );
}, 180_000);

describe('permission rules from .assistantrc', () => {
  it('decides every case as documented', () => {
    const failures = list.flatMap((c, i) => {
      const got = results[i]!;
      const ok = got.behavior === c.behavior && (c.layer === undefined || got.layer === c.layer) && (!c.reason || c.reason.test(got.reason ?? ''));
      return ok ? [] : [`${c.tool ?? 'Bash'} ${JSON.stringify(c.input)} (${c.mode ?? 'default'}): want ${c.behavior}/${c.layer ?? '*'}, got ${got.behavior}/${got.layer}: ${got.reason ?? got.error}`];
    });
    expect(failures).toEqual([]);
  });

  it('rejects a malformed rule at load, naming the file and the JSON path', async () => {
    const broken = policyFixture({ permissions: { allow: ['Bash(npm test'] } });
    const result = await runCli(['config', 'validate', '--trust-project'], { cwd: broken.root, env: broken.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ASSISTANT_PLUGIN_OPTIONS_INVALID');
    expect(result.stderr).toContain('/permissions/allow/0');
    expect(result.stderr).toContain(join(broken.root, '.assistantrc'));
  });

  it('rejects an unknown permissions key with the file and path', async () => {
    const broken = policyFixture({ permissions: { alow: ['Bash(ls)'] } });
    const result = await runCli(['config', 'validate', '--trust-project'], { cwd: broken.root, env: broken.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/\/permissions\/alow: is not a known key/);
  });

  it('reads "always for this project" rules from the local settings file, and fails closed on a broken one', async () => {
    const local = policyFixture();
    mkdirSync(join(local.root, '.assistant'));
    writeFileSync(join(local.root, '.assistant/settings.local.json'), JSON.stringify({ permissions: { allow: ['Bash(make deploy)'], deny: ['Bash(make clean)'] } }));
    const [allowed, denied] = await checkBatch(local, [
      { tool: 'Bash', input: { command: 'make deploy' } },
      { tool: 'Bash', input: { command: 'make clean' } },
    ]);
    expect(allowed).toMatchObject({ behavior: 'allow', layer: 'rules' });
    expect(allowed!.reason).toContain('settings.local.json');
    expect(denied).toMatchObject({ behavior: 'deny', layer: 'rules' });

    writeFileSync(join(local.root, '.assistant/settings.local.json'), '{ "permissions": { "allow": [');
    const [broken] = await checkBatch(local, [{ tool: 'Bash', input: { command: 'ls' } }]);
    expect(broken).toMatchObject({ behavior: 'deny' });
    expect(broken!.reason).toMatch(/settings\.local\.json is not valid JSON/);
  });
});
