import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bash, checkBatch, policyFixture } from './support.js';

// Searches and git commands print files no operand names: a secret they would print keeps them
// from being proven safe (through the built CLI, `permissions check`).

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' });

describe('secrets no operand names', () => {
  it('rg and ag skip hidden files but read every other file below their targets', async () => {
    const fixture = policyFixture();
    mkdirSync(join(fixture.root, 'config'), { recursive: true });
    writeFileSync(join(fixture.root, 'config', 'credentials.json'), '{"token":"SECRET"}\n');
    const [rg, rgSrc, rgConfig, ag, rgHidden] = await checkBatch(fixture, bash(['rg SECRET', 'rg TODO src', 'rg SECRET config', 'ag SECRET', 'rg --hidden TODO src']));
    expect(rg).toMatchObject({ behavior: 'deny', layer: 'guard' });
    expect(rg!.reason).toContain('credentials.json');
    // The fixture's .env is hidden: rg never reads it, so a search of src/ stays allowed.
    expect(rgSrc).toMatchObject({ behavior: 'allow' });
    expect(rgConfig).toMatchObject({ behavior: 'deny', layer: 'guard' });
    expect(ag).toMatchObject({ behavior: 'deny', layer: 'guard' });
    expect(rgHidden).toMatchObject({ behavior: 'allow' });
  });

  it('a recursive search over more files than the scan looks at is not proven safe', async () => {
    const fixture = policyFixture();
    const big = join(fixture.root, 'big');
    for (let d = 0; d < 25; d++) {
      mkdirSync(join(big, `d${d}`), { recursive: true });
      for (let f = 0; f < 900; f++) writeFileSync(join(big, `d${d}`, `f${f}.txt`), '');
    }
    const [grep, grepSrc] = await checkBatch(fixture, bash(['grep -r TODO big', 'grep -r TODO src']));
    expect(grep).toMatchObject({ behavior: 'ask' });
    expect(grep!.reason).toMatch(/too many files/);
    expect(grepSrc).toMatchObject({ behavior: 'allow' });
  });

  it('git commands that print content by commit or object ask when the repository tracks a secret', async () => {
    const fixture = policyFixture();
    git(fixture.root, 'init', '-q');
    git(fixture.root, 'add', 'src', 'README.md');
    git(fixture.root, 'commit', '-q', '-m', 'clean');
    const commands = ['git grep TODO', 'git log -p', 'git show HEAD', 'git diff HEAD', 'git cat-file -p HEAD', 'git log --oneline', 'git status'];
    const clean = await checkBatch(fixture, bash(commands));
    expect(clean.map((d) => d.behavior)).toEqual(commands.map(() => 'allow'));

    mkdirSync(join(fixture.root, 'deploy'), { recursive: true });
    writeFileSync(join(fixture.root, 'deploy', 'server.key'), 'PRIVATE\n');
    git(fixture.root, 'add', 'deploy/server.key');
    git(fixture.root, 'commit', '-q', '-m', 'oops');
    const tracked = await checkBatch(fixture, bash(commands));
    expect(tracked.slice(0, 5).map((d) => d.behavior)).toEqual(['ask', 'ask', 'ask', 'ask', 'ask']);
    expect(tracked[0]!.reason).toContain('deploy/server.key');
    // History by name only, and the status, print no file's content.
    expect(tracked.slice(5).map((d) => d.behavior)).toEqual(['allow', 'allow']);
    const plan = await checkBatch(fixture, bash(['git show HEAD'], 'plan'));
    expect(plan[0]).toMatchObject({ behavior: 'deny' });
  });
});
