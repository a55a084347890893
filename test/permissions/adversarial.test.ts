import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../dist/plugins/permissions/policy/shell/argv.js';
import { analyzeShell } from '../../dist/plugins/permissions/policy/shell/analyze.js';
import { unsafeSedScript } from '../../dist/plugins/permissions/policy/shell/specs/sed-script.js';
import { isReadOnlyScript } from '../../dist/plugins/permissions/policy/safety.js';
import { bash, checkBatch, policyFixture, type CheckResult, type PolicyFixture } from './support.js';

// Issue #14: the classifier proves a command read-only only when every option is known to its
// spec, and sees catastrophic targets through wrappers, expansions and payloads. The corpus
// (corpus/*.txt) holds the full lists; these pin the mechanisms behind them.

const literal = (value: string) => ({ value, template: value, glob: false });
const words = (text: string) => text.split(' ').map(literal);

describe('strict option parsing', () => {
  const spec = { flags: ['-l', '-a', '--all'], values: { '-n': 'text', '--output': 'write', '--split-string': 'code' } as const };

  it('records options the spec does not list, bundled or long', () => {
    expect(parseArgs(words('-la x'), spec).unknown).toEqual([]);
    expect(parseArgs(words('-lZ x'), spec).unknown).toEqual(['-lZ']);
    expect(parseArgs(words('--unknown x'), spec).unknown).toEqual(['--unknown']);
    // A flag given a value is not the flag the spec knows.
    expect(parseArgs(words('--all=yes'), spec).unknown).toEqual(['--all=yes']);
  });

  it('resolves abbreviations of long options to consume their value, but never counts them as known', () => {
    const parsed = parseArgs(words('--out file.txt rest'), spec);
    expect(parsed.options.get('--output')?.[0]?.value).toBe('file.txt');
    expect(parsed.operands.map((a) => a.value)).toEqual(['rest']);
    expect(parsed.unknown).toEqual(['--out']);
    expect(parseArgs(words('--split=x'), spec).options.has('--split-string')).toBe(true);
  });

  it('takes a short value option from the rest of a bundle, and treats everything after -- as operands', () => {
    const parsed = parseArgs(words('-ln5 -- -a'), spec);
    expect(parsed.options.get('-n')?.[0]?.value).toBe('5');
    expect(parsed.operands.map((a) => a.value)).toEqual(['-a']);
    expect(parsed.unknown).toEqual([]);
  });
});

describe('sed scripts', () => {
  it('proves printing and editing scripts', () => {
    for (const script of ['p', '1,20p', 's/a/b/g', 's|a|b|2p', '/x/d', '$!N;P;D', 'y/abc/xyz/', '2{p;q}', '1i\\\nhello', ': a;N;ba'])
      expect(unsafeSedScript(script), script).toBeUndefined();
  });

  it('refuses w, W, r, R, e and the s///w and s///e flags under any delimiter or address', () => {
    for (const script of ['w out', '1w out', '$w out', '/a/w out', 's/a/b/w out', 's|a|b|w out', 's#a#b#gw out', 's,a,b,e', 'e id', 'x;e id', 'r .env', '1R .env', 'W out', '0~2w x', '2!w x', 's/a/b/ ; w x', 's:a:b:I w x', 'v', '1{e id\n}'])
      expect(unsafeSedScript(script), script).toBeDefined();
  });
});

describe('read-only proofs', () => {
  const options = { cwd: '/work/project', home: '/home/user', allowSudo: false, trustTests: true };
  const readOnly = async (command: string) => isReadOnlyScript(await analyzeShell(command, options));

  it('keeps everyday commands with their usual flags provable', async () => {
    for (const command of ['ls -la --color=auto src', 'grep -rn --include=*.ts TODO src', 'git log --oneline -n 5', 'find src -maxdepth 2 -type f -name "*.ts"', "sed -n '1,5p' a.txt", 'LC_ALL=C sort -u names.txt'])
      expect(await readOnly(command), command).toBe(true);
  });

  it('does not prove commands whose options or variables run programs, write files or print credentials', async () => {
    for (const command of [
      'env -S"touch x" ls', 'env --split=touch', 'env --spl touch', 'ls --unknown', 'sort --out=x names.txt', "sed 's#a#b#w out' x", "awk '{print > \"f\"}' x",
      "awk 'BEGIN{getline l < \".env\"}'", 'gawk -E prog.awk', "man -P 'touch x' ls", 'less --log-file=x a', 'MAKEFLAGS=x ls', 'RIPGREP_CONFIG_PATH=x rg a',
      'export GIT_DIR=/tmp; git status', 'echo "${x@P}"', 'echo ${!x}', "x='a[$(id)]'; echo $(( x ))", "[[ -v 'a[$(id)]' ]]", "printf -v 'a[$(id)]' %s x",
      'git config --list', 'git remote -v', 'git -c core.pager=x log', 'git diff --out=x', 'git -C /tmp log', 'flock /tmp/l ls',
    ])
      expect(await readOnly(command), command).toBe(false);
  });
});

describe('hard blocks and test runners through the CLI', () => {
  let fixture: PolicyFixture;
  let decisions: Map<string, CheckResult>;
  const blocked = ['rm -rf "${HOME:?}"', 'rm -rf "${X:-/}"', 'rm -rf ~other', 'rm -rf "$(dirname $PWD)"', 'rm -rf "$(pwd)/.."', 'rm -rf /[b]in', 'flock /tmp/l rm -rf /', 'unshare -r rm -rf ~', 'npm exec -- rm -rf /', 'script -c "rm -rf /"', "printf 'rm -rf ~' | sh", 'echo / | xargs rm -rf', 'mywrapper rm -rf /'];
  const unproven = ['pytest --basetemp=important', 'pytest -p evil', 'node --test --import ./evil.mjs', 'npm test --script-shell=/tmp/evil', 'go test -exec ./evil ./...', "cargo test --config 'x'", 'eslint -f ./evil.js src', 'prettier --plugin ./evil.js --check .', 'jest --config evil.js', 'make --eval=x test'];
  const proven = ['pytest -q -x', 'npm test -- --run', 'go test -run TestX ./...', 'eslint --max-warnings 0 src', 'make -s test'];

  beforeAll(async () => {
    fixture = policyFixture();
    const requests = [...bash(blocked, 'bypass'), ...bash(unproven), ...bash(unproven, 'plan'), ...bash(proven)];
    const results = await checkBatch(fixture, requests);
    decisions = new Map(results.map((d, i) => [`${requests[i]!.mode}:${(requests[i]!.input as { command: string }).command}`, d]));
  }, 180_000);

  it('denies catastrophic targets hidden in expansions, wrappers and payloads, even in bypass mode', () => {
    for (const command of blocked) expect(decisions.get(`bypass:${command}`), command).toMatchObject({ behavior: 'deny', layer: 'guard' });
  });

  it('asks before test runs given options that load code or write outside their default places, and refuses them in plan mode', () => {
    for (const command of unproven) {
      expect(decisions.get(`default:${command}`)?.behavior, command).not.toBe('allow');
      expect(decisions.get(`plan:${command}`)?.behavior, command).toBe('deny');
    }
  });

  it('still allows the everyday test runs', () => {
    for (const command of proven) expect(decisions.get(`default:${command}`)?.behavior, command).toBe('allow');
  });
});

describe('globs that expand to options', () => {
  it('does not prove `sort *` in a directory holding a file named like an option (sort -o.bashrc)', async () => {
    const fixture = policyFixture();
    const commands = ['sort *.txt', 'cat src/*', 'ls *'];
    const before = await checkBatch(fixture, bash(commands, 'plan'));
    writeFileSync(join(fixture.root, '-o.bashrc.txt'), '');
    const after = await checkBatch(fixture, bash(commands, 'plan'));
    expect(before.map((d) => d.behavior)).toEqual(['allow', 'allow', 'allow']);
    expect(after.map((d) => d.behavior)).toEqual(['deny', 'allow', 'deny']);
  }, 120_000);
});
