// --add-dir / permissions.additionalDirectories (issue #19): an added folder counts as inside the
// project for every path check, and nothing else widens: a symlink out of it, a `../` escape, a
// sibling whose name starts with the added one's, its own control files and secrets.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { realAddedDirectories } from '../../dist/core/kits/fs/index.js';
import { runCli } from '../support/cli.js';
import { tempDir, writeFiles } from '../support/project.js';
import { checkBatch, policyFixture, type CheckRequest, type PolicyFixture } from './support.js';

let fixture: PolicyFixture;
/** `<base>/a` is added; `<base>/ab` (a longer name with the same start) and `<base>/secret` are not. */
let base: string;
let added: string;

beforeAll(() => {
  fixture = policyFixture();
  base = tempDir('assistant-added-');
  added = join(base, 'a');
  writeFiles(base, {
    'a/notes.txt': 'notes\n',
    'a/sub/deep.txt': 'deep\n',
    'a/.env': 'TOKEN=x\n',
    'a/.git/hooks/.keep': '',
    'ab/other.txt': 'other\n',
    'secret/key.txt': 'key\n',
  });
  symlinkSync(join(base, 'secret'), join(added, 'link-out'));
  symlinkSync(join(base, 'secret', 'key.txt'), join(added, 'key-link'));
});

const read = (file_path: string, mode: CheckRequest['mode'] = 'default'): CheckRequest => ({ tool: 'Read', input: { file_path }, mode });
const write = (file_path: string, mode: CheckRequest['mode'] = 'acceptEdits'): CheckRequest => ({ tool: 'Write', input: { file_path, content: 'x\n' }, mode });
const bash = (command: string, mode: CheckRequest['mode'] = 'default'): CheckRequest => ({ tool: 'Bash', input: { command }, mode });

describe('an added directory is inside the project for the permission policy', () => {
  it('allows reads, and edits in acceptEdits, inside it; without --add-dir the same calls ask or are refused', async () => {
    const requests = [
      read(join(added, 'notes.txt')),
      read(join(added, 'sub/deep.txt')),
      write(join(added, 'new.txt')),
      bash(`cat ${join(added, 'notes.txt')}`),
      bash(`touch ${join(added, 'made.txt')}`, 'acceptEdits'),
      { tool: 'Grep', input: { pattern: 'notes', path: added }, mode: 'default' as const },
    ];
    const withDir = await checkBatch(fixture, requests, ['--add-dir', added]);
    expect(withDir.map((d) => d.behavior)).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
    expect(withDir[2]!.reason).toContain('acceptEdits mode allows edits inside the project');

    const without = await checkBatch(fixture, requests);
    expect(without.map((d) => d.behavior)).toEqual(['ask', 'ask', 'deny', 'ask', 'deny', 'ask']);
  });

  it('does not widen to a sibling whose name starts with the added one (…/ab vs …/a), nor through ../', async () => {
    const decisions = await checkBatch(
      fixture,
      [read(join(base, 'ab/other.txt')), write(join(base, 'ab/new.txt')), write(`${added}/../ab/new.txt`), read(`${added}/sub/../../secret/key.txt`), write(`${added}x/new.txt`)],
      ['--add-dir', added],
    );
    expect(decisions.map((d) => d.behavior)).toEqual(['ask', 'deny', 'deny', 'ask', 'deny']);
    expect(decisions[1]!.reason).toContain(`writes outside the project (${join(base, 'ab/new.txt')})`);
    expect(decisions[3]!.reason).toContain(`reads outside the project: ${join(base, 'secret/key.txt')}`);
  });

  it('judges a symlink inside it by where it leads', async () => {
    const decisions = await checkBatch(
      fixture,
      [read(join(added, 'link-out/key.txt')), read(join(added, 'key-link')), write(join(added, 'link-out/planted.txt')), bash(`cat ${join(added, 'key-link')}`)],
      ['--add-dir', added],
    );
    expect(decisions.map((d) => d.behavior)).toEqual(['ask', 'ask', 'deny', 'ask']);
    expect(decisions[2]!.reason).toContain(`writes outside the project (${join(base, 'secret/planted.txt')})`);
  });

  it('keeps its own control files and secrets protected', async () => {
    const decisions = await checkBatch(
      fixture,
      [
        write(join(added, '.git/hooks/pre-commit')),
        write(join(added, '.assistantrc')),
        write(join(added, 'sub/.assistantrc')),
        write(join(added, '.mcp.json')),
        read(join(added, '.env')),
        write(join(added, '.bashrc')),
      ],
      ['--add-dir', added],
    );
    expect(decisions.map((d) => d.behavior)).toEqual(['ask', 'ask', 'ask', 'ask', 'deny', 'deny']);
    expect(decisions[0]!.reason).toContain('git hooks run programs');
    expect(decisions[1]!.reason).toContain("assistant's configuration");
    expect(decisions[2]!.reason).toContain("assistant's configuration");
    expect(decisions[4]!.layer).toBe('guard');
  });
});

describe('what can be added', () => {
  const check = (args: string[]) => runCli(['permissions', 'check', '--trust-project', '--tool', 'Read', '--input', '{"file_path":"x"}', ...args], { cwd: fixture.root, env: fixture.env });

  it('refuses the file system root, system folders, the home folder, missing folders and files with a usage error', async () => {
    const file = join(base, 'a/notes.txt');
    for (const [dir, why] of [
      ['/', 'is the file system root, which can never be added'],
      ['/etc', 'is in /etc, which can never be added'],
      ['/proc/self', 'is in /proc, which can never be added'],
      [fixture.home, 'is your home folder, whose settings files configure every program you run'],
      [join(base, 'missing'), 'does not exist or cannot be reached (ENOENT)'],
      [file, 'is not a directory'],
    ]) {
      const r = await check(['--add-dir', dir!]);
      expect(r.code, dir).toBe(2);
      expect(r.stderr, dir).toMatch(new RegExp(`^ASSISTANT_USAGE: --add-dir: ${dir!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} ${why!.replace(/[()]/g, '\\$&')}`));
    }
  });

  it("refuses assistant's own folders, a folder in one, and a folder holding one", async () => {
    const data = join(fixture.home, '.local/share/assistant');
    mkdirSync(join(data, 'projects'), { recursive: true });
    for (const dir of [data, join(data, 'projects')]) {
      const r = await check(['--add-dir', dir]);
      expect(r.code, dir).toBe(2);
      expect(r.stderr, dir).toMatch(/^ASSISTANT_USAGE: --add-dir: .* (is in|holds) assistant's own folder .*\(its configuration, sessions and grants\)/);
    }
    // A data folder outside the home folder: the folder that holds it is refused too.
    const outside = tempDir('assistant-data-holder-');
    mkdirSync(join(outside, 'data'));
    const r = await runCli(['permissions', 'check', '--trust-project', '--tool', 'Read', '--input', '{"file_path":"x"}', '--add-dir', outside], {
      cwd: fixture.root,
      env: { ...fixture.env, ASSISTANT_DATA_DIR: join(outside, 'data') },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds assistant's own folder .*data/);
    // Not made yet, and named through a symlinked parent: still found where it would be.
    const real = tempDir('assistant-data-real-');
    const link = join(tempDir('assistant-data-link-'), 'via');
    symlinkSync(real, link);
    const saved = process.env.ASSISTANT_DATA_DIR;
    process.env.ASSISTANT_DATA_DIR = join(link, 'not-yet', 'data');
    try {
      expect(() => realAddedDirectories([real], fixture.root, 'a test')).toThrow(/holds assistant's own folder/);
    } finally {
      process.env.ASSISTANT_DATA_DIR = saved;
    }
  });

  it('takes several folders, relative ones from the working directory', async () => {
    mkdirSync(join(fixture.root, '..', 'sibling-of-fixture'), { recursive: true });
    writeFileSync(join(fixture.root, '..', 'sibling-of-fixture', 'f.txt'), 'f\n');
    const decisions = await checkBatch(fixture, [read(join(added, 'notes.txt')), read(join(fixture.root, '..', 'sibling-of-fixture', 'f.txt'))], ['--add-dir', added, '../sibling-of-fixture']);
    expect(decisions.map((d) => d.behavior)).toEqual(['allow', 'allow']);
  });
});

describe('permissions.additionalDirectories in a config file', () => {
  it("waits for the user's trust in a project file, and is relative to the file that sets it", async () => {
    const project = policyFixture({ permissions: { additionalDirectories: ['../' + base.split('/').pop() + '/a'] } });
    // The fixture's directories are siblings in the temp folder, so the relative entry names `added`.
    const untrusted = await runCli(['permissions', 'check', '--tool', 'Read', '--input', JSON.stringify({ file_path: join(added, 'notes.txt') })], { cwd: project.root, env: project.env });
    expect(untrusted.stdout).toMatch(/^ask /);
    expect(untrusted.stderr).toContain('/permissions/additionalDirectories');
    const trusted = await checkBatch(project, [read(join(added, 'notes.txt'))]);
    expect(trusted[0]!.behavior).toBe('allow');
  });

  it('is a config error (exit 2) naming the file when an entry does not check out', async () => {
    const project = policyFixture({ permissions: { additionalDirectories: ['./no-such-folder'] } });
    const r = await runCli(['config', 'validate', '--trust-project'], { cwd: project.root, env: project.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`ASSISTANT_CONFIG_INVALID: permissions.additionalDirectories (from ${join(project.root, '.assistantrc')}): ${join(project.root, 'no-such-folder')} does not exist`);
  });
});
