import { beforeAll, describe, expect, it } from 'vitest';
import { bash, checkBatch, corpus, policyFixture, type CheckRequest, type CheckResult, type PolicyFixture } from './support.js';

// Every list is judged in one CLI process per mode: `permissions check --batch` is how users and
// these tests run the policy at scale.
let fixture: PolicyFixture;
const results = new Map<string, CheckResult[]>();

const readOnly = corpus('read-only.txt');
const mutating = corpus('mutating.txt');
const blocked = corpus('blocked.txt');
const secrets = corpus('secrets.txt');

/** Wrappers and list forms an evasion might hide a command in; the verdict must not soften. */
const singleQuoted = (c: string) => `'${c.replaceAll("'", `'\\''`)}'`;
const compound = (c: string) => /[;&|(){}\n<>]/.test(c);
const disguises = [
  (c: string) => c,
  (c: string) => `true && ${c}`,
  (c: string) => `(${c})`,
  (c: string) => `{ ${c}
}`,
  (c: string) => `ls; ${c}`,
  (c: string) => `if true; then ${c}
fi`,
  // Wrappers only make sense in front of a single simple command.
  (c: string) => (compound(c) ? `bash -c ${singleQuoted(c)}` : `env A=1 ${c}`),
  (c: string) => (compound(c) ? `sh -c ${singleQuoted(c)}` : `timeout 5 ${c}`),
];

function describeFailures(commands: string[], decisions: CheckResult[], ok: (d: CheckResult) => boolean): string[] {
  return decisions.flatMap((d, i) => (ok(d) ? [] : [`${JSON.stringify(commands[i])} → ${d.behavior ?? d.error} [${d.layer}] ${d.reason ?? ''}`]));
}

beforeAll(async () => {
  fixture = policyFixture();
  const lists: Record<string, CheckRequest[]> = {
    'read-only/default': bash(readOnly),
    'mutating/default': bash(mutating),
    'mutating/plan': bash(mutating, 'plan'),
    'blocked/bypass': bash(blocked, 'bypass'),
    'blocked/default': bash(blocked),
    'secrets/bypass': bash(secrets, 'bypass'),
    'secrets/acceptEdits': bash(secrets, 'acceptEdits'),
    'disguised-mutating/default': bash(mutating.flatMap((c) => disguises.map((d) => d(c)))),
    'disguised-blocked/bypass': bash(blocked.flatMap((c) => disguises.map((d) => d(c))), 'bypass'),
  };
  // One process for all of them: thousands of decisions.
  const all = Object.values(lists).flat();
  const decisions = await checkBatch(fixture, all);
  let offset = 0;
  for (const [name, requests] of Object.entries(lists)) {
    results.set(name, decisions.slice(offset, offset + requests.length));
    offset += requests.length;
  }
}, 180_000);

describe('shell command policy at scale', () => {
  it('judges thousands of commands in one process, every line answered', () => {
    const total = [...results.values()].reduce((n, r) => n + r.length, 0);
    expect(total).toBeGreaterThan(3000);
    for (const decisions of results.values()) for (const d of decisions) expect(d.error, JSON.stringify(d)).toBeUndefined();
  });

  it('never auto-allows a command that mutates or reaches the network in default mode', () => {
    const failures = describeFailures(mutating, results.get('mutating/default')!, (d) => d.behavior !== 'allow');
    expect(failures).toEqual([]);
  });

  it('never auto-allows them when wrapped in lists, subshells, groups, conditionals or wrappers', () => {
    const commands = mutating.flatMap((c) => disguises.map((d) => d(c)));
    expect(describeFailures(commands, results.get('disguised-mutating/default')!, (d) => d.behavior !== 'allow')).toEqual([]);
  });

  it('refuses every one of them in plan mode', () => {
    expect(describeFailures(mutating, results.get('mutating/plan')!, (d) => d.behavior === 'deny')).toEqual([]);
  });

  it('never runs a hard-blocked command, even in bypass mode, and says why', () => {
    const decisions = results.get('blocked/bypass')!;
    expect(describeFailures(blocked, decisions, (d) => d.behavior === 'deny' && d.layer === 'guard')).toEqual([]);
    for (const d of decisions) expect(d.reason).toMatch(/^blocked: .+never runs/);
    expect(describeFailures(blocked, results.get('blocked/default')!, (d) => d.behavior === 'deny' && d.layer === 'guard')).toEqual([]);
  });

  it('keeps hard blocks through every disguise in bypass mode', () => {
    const commands = blocked.flatMap((c) => disguises.map((d) => d(c)));
    expect(describeFailures(commands, results.get('disguised-blocked/bypass')!, (d) => d.behavior === 'deny' && d.layer === 'guard')).toEqual([]);
  });

  it('denies shell commands that read or write secrets in every mode (cat .env is no way around Read(.env))', () => {
    for (const mode of ['secrets/bypass', 'secrets/acceptEdits'])
      expect(describeFailures(secrets, results.get(mode)!, (d) => d.behavior === 'deny' && d.layer === 'guard')).toEqual([]);
  });

  it('allows everyday read-only commands: false-positive rate within budget', () => {
    const decisions = results.get('read-only/default')!;
    const asked = describeFailures(readOnly, decisions, (d) => d.behavior === 'allow');
    const rate = asked.length / readOnly.length;
    // docs/permissions.md reports this number; bench/permissions.mjs measures it too.
    console.log(`read-only false positives: ${asked.length}/${readOnly.length} (${(rate * 100).toFixed(1)}%)\n${asked.join('\n')}`);
    expect(rate).toBeLessThanOrEqual(0.1);
    // An outright denial is only ever the guard keeping a secret (grep -r over a project with .env).
    for (const d of decisions.filter((d) => d.behavior === 'deny')) expect(d.reason).toMatch(/secret/);
  });
});
