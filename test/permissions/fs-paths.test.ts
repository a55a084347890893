import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFiles } from '../support/project.js';
import { checkBatch, policyFixture, type CheckRequest, type CheckResult, type PolicyFixture } from './support.js';

// Every path-like input of the file tools is judged, through the built CLI (`permissions check`)
// with the real tool definitions: Glob's pattern prefix, Grep's glob, hard links, symlink loops,
// deceptive names and the secret files added for issue #14.

type Expect = { behavior: CheckResult['behavior']; layer?: string; reason?: RegExp };
interface Case {
  name: string;
  request: (f: PolicyFixture) => CheckRequest;
  expect: Expect;
}

const allow = (layer = 'mode'): Expect => ({ behavior: 'allow', layer });
const ask = (reason?: RegExp, layer?: string): Expect => ({ behavior: 'ask', reason, layer });
const deny = (layer: string, reason?: RegExp): Expect => ({ behavior: 'deny', layer, reason });
const read = (file_path: string, mode: CheckRequest['mode'] = 'default') => () => ({ tool: 'Read', input: { file_path }, mode });

const cases: Case[] = [
  // Glob's pattern carries a path of its own.
  { name: 'Glob of ~/.ssh by absolute pattern', request: (f) => ({ tool: 'Glob', input: { pattern: `${f.home}/.ssh/*` } }), expect: deny('guard', /\.ssh/) },
  { name: 'Glob of ~/.ssh by tilde', request: () => ({ tool: 'Glob', input: { pattern: '~/.ssh/*' } }), expect: deny('guard', /\.ssh/) },
  { name: 'Glob climbing out with ..', request: () => ({ tool: 'Glob', input: { pattern: '../../**' } }), expect: ask(/outside the project/) },
  { name: 'Glob of an absolute folder outside', request: (f) => ({ tool: 'Glob', input: { pattern: `${f.outside}/**/*.txt` } }), expect: ask(/outside the project/) },
  { name: 'Glob .. below a folder', request: () => ({ tool: 'Glob', input: { pattern: '../**', path: 'src' } }), expect: allow() },
  { name: 'Glob .. out of a folder', request: () => ({ tool: 'Glob', input: { pattern: '../../*', path: 'src' } }), expect: ask(/outside the project/) },
  { name: 'Glob through a symlink out by its prefix', request: () => ({ tool: 'Glob', input: { pattern: 'link-out/**' } }), expect: ask(/outside the project/) },
  { name: 'Glob of a secret folder by its prefix', request: () => ({ tool: 'Glob', input: { pattern: 'link-ssh/*' } }), expect: deny('guard', /\.ssh/) },
  { name: 'Glob inside the project', request: () => ({ tool: 'Glob', input: { pattern: 'src/**/*.ts' } }), expect: allow() },
  { name: 'Glob of a secret named without wildcards', request: (f) => ({ tool: 'Glob', input: { pattern: `${f.home}/.aws/credentials` } }), expect: deny('guard') },
  // Grep's glob too.
  { name: 'Grep with an absolute glob outside', request: () => ({ tool: 'Grep', input: { pattern: 'x', glob: '/etc/**' } }), expect: ask(/outside the project/) },
  { name: 'Grep with a glob that climbs out', request: () => ({ tool: 'Grep', input: { pattern: 'x', glob: '*.ts ../../**' } }), expect: ask(/outside the project/) },
  { name: 'Grep with an ordinary glob', request: () => ({ tool: 'Grep', input: { pattern: 'x', glob: '*.{ts,tsx} !*.min.js' } }), expect: allow() },
  // A hard link is not proven inside: Read and Bash ask, writes ask, and no mode but bypass lets it through.
  { name: 'Read a hard link to a file outside', request: read('src/linked.txt'), expect: ask(/hard links/, 'paths') },
  { name: 'Read a hard link in plan mode', request: read('src/linked.txt', 'plan'), expect: ask(/hard links/, 'paths') },
  // A write through a hard link may change a control file elsewhere: the mode layer asks before acceptEdits would allow it.
  { name: 'Edit a hard link in acceptEdits', request: () => ({ tool: 'Edit', input: { file_path: 'src/linked.txt', old_string: 'a', new_string: 'b' }, mode: 'acceptEdits' }), expect: ask(/hard links/, 'mode') },
  { name: 'cat a hard link', request: () => ({ tool: 'Bash', input: { command: 'cat src/linked.txt' } }), expect: ask(/hard links/) },
  { name: 'Grep a hard link', request: () => ({ tool: 'Grep', input: { pattern: 'x', path: 'src/linked.txt' } }), expect: ask(/hard links/) },
  // Symlink loops fail closed in every mode.
  { name: 'Read a symlink loop', request: read('loop-a'), expect: deny('guard', /loop of symlinks/) },
  { name: 'Read a symlink loop in bypass', request: read('loop-a', 'bypass'), expect: deny('guard', /loop of symlinks/) },
  { name: 'Write below a symlink loop', request: () => ({ tool: 'Write', input: { file_path: 'loop-a/x.txt', content: 'x' }, mode: 'acceptEdits' }), expect: deny('guard', /loop of symlinks/) },
  { name: 'Grep in a symlink loop', request: () => ({ tool: 'Grep', input: { pattern: 'x', path: 'loop-b' } }), expect: deny('guard', /loop of symlinks/) },
  // Names that lie about themselves ask, shown escaped.
  { name: 'Read a name with a right-to-left override', request: read('src/invoice\u202Etxt.exe'), expect: ask(/invoice\\u\{202e\}txt\.exe.*bidirectional/, 'paths') },
  { name: 'Write a name with a bidi isolate', request: () => ({ tool: 'Write', input: { file_path: 'src/a\u2066b.ts', content: 'x' }, mode: 'acceptEdits' }), expect: ask(/\\u\{2066\}/, 'paths') },
  { name: 'Edit a name with a C1 control', request: () => ({ tool: 'Edit', input: { file_path: 'src/a\u009bb.ts', old_string: 'a', new_string: 'b' }, mode: 'acceptEdits' }), expect: ask(/\\u\{009b\}/, 'paths') },
  { name: 'Read a plain name that links to a deceptive one', request: read('src/plain-link.txt'), expect: ask(/\\u\{202e\}/, 'paths') },
  { name: 'Read a name with a left-to-right mark', request: read('src/a\u200Eb.ts'), expect: ask(/\\u\{200e\}/, 'paths') },
  // State and secret-bearing files.
  { name: 'read the environment of a process', request: read('/proc/self/environ', 'bypass'), expect: deny('guard', /environment/) },
  { name: 'read a submodule git config', request: read('.git/modules/lib/config'), expect: deny('guard', /git config/) },
  ...['infra/terraform.tfstate', 'infra/terraform.tfstate.backup', 'infra/prod.tfvars', 'infra/prod.auto.tfvars.json', 'infra/.terraform/providers/x', '.envrc', 'vault.kdbx', 'AuthKey_ABC123.p8', 'keys/service-account.json', 'deploy/my-project-firebase-adminsdk-x1.json', 'kubeconfig', 'clusters/prod.kubeconfig', '.vault-token', 'certs/site.keytab', '.terraformrc', '.pgpass'].map(
    (path): Case => ({ name: `read secret ${path}`, request: read(path), expect: deny('guard', /secret|credentials|keys|state/) }),
  ),
  ...['infra/main.tf', 'infra/variables.tf', 'src/secrets.ts', 'src/keys.ts', 'config/service.json', 'docs/terraform.md', 'src/tfstate.go', 'k8s/deployment.yaml'].map(
    (path): Case => ({ name: `ordinary file ${path}`, request: read(path), expect: allow() }),
  ),
];

describe('file-tool paths through permissions check', () => {
  let fixture: PolicyFixture;
  let results: CheckResult[];
  beforeAll(async () => {
    fixture = policyFixture();
    writeFiles(fixture.root, { 'infra/main.tf': 'x\n', 'src/keys.ts': 'x\n' });
    writeFileSync(join(fixture.outside, 'secret-key'), 'KEY\n');
    linkSync(join(fixture.outside, 'secret-key'), join(fixture.root, 'src', 'linked.txt'));
    symlinkSync(join(fixture.root, 'loop-b'), join(fixture.root, 'loop-a'));
    symlinkSync(join(fixture.root, 'loop-a'), join(fixture.root, 'loop-b'));
    mkdirSync(join(fixture.root, 'infra', '.terraform', 'providers'), { recursive: true });
    writeFileSync(join(fixture.root, 'src', 'evil\u202Etxt.sh'), 'x\n');
    symlinkSync(join(fixture.root, 'src', 'evil\u202Etxt.sh'), join(fixture.root, 'src', 'plain-link.txt'));
    results = await checkBatch(fixture, cases.map((c) => c.request(fixture)));
  }, 180_000);

  it.each(cases.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
    const result = results[i]!;
    const wanted = cases[i]!.expect;
    expect(result.behavior, JSON.stringify(result)).toBe(wanted.behavior);
    if (wanted.layer) expect(result.layer, JSON.stringify(result)).toBe(wanted.layer);
    if (wanted.reason) expect(result.reason).toMatch(wanted.reason);
    // A deceptive character never reaches the approval text unescaped.
    expect(result.reason ?? '').not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u0080-\u009f]/);
  });
});

describe('allow rules do not vouch for a path that is not what it seems', () => {
  it('asks for a hard link or a deceptive name even under Read(src/**) and Edit(src/**)', async () => {
    const fixture = policyFixture({ permissions: { allow: ['Read(src/**)', 'Edit(src/**)'] } });
    writeFileSync(join(fixture.outside, 'key'), 'KEY\n');
    linkSync(join(fixture.outside, 'key'), join(fixture.root, 'src', 'linked.txt'));
    const [linked, edited, bidi, plain] = await checkBatch(fixture, [
      { tool: 'Read', input: { file_path: 'src/linked.txt' } },
      { tool: 'Edit', input: { file_path: 'src/linked.txt', old_string: 'a', new_string: 'b' } },
      { tool: 'Write', input: { file_path: 'src/a\u202Eb.ts', content: 'x' } },
      { tool: 'Edit', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } },
    ]);
    expect(linked).toMatchObject({ behavior: 'ask', layer: 'paths' });
    expect(edited).toMatchObject({ behavior: 'ask', layer: 'mode' });
    expect(bidi).toMatchObject({ behavior: 'ask', layer: 'paths' });
    expect(plain).toMatchObject({ behavior: 'allow', layer: 'rules' });
  }, 120_000);
});
