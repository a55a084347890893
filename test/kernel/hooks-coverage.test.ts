// Every hook earns its place: a line in docs/hooks.md and a test that uses it. A hook nobody
// documents or exercises is a hook to remove (webpack's 86 hooks in one object is the warning).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHooks } from '../../dist/core/kernel/hooks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const HOOKS = Object.keys(createHooks());
const docs = readFileSync(join(ROOT, 'docs/hooks.md'), 'utf8');

/** The hook rows of docs/hooks.md's table. */
const documented = [...docs.matchAll(/^\| `([A-Za-z]+)` \| (?:Sync|Async|HookMap)/gm)].map((m) => m[1]!);

/** Test sources (this file aside), where a hook counts as used when named as `hooks.<name>` or as a quoted name. */
function testSources(): string[] {
  const dirs = ['test', ...readdirSync(join(ROOT, 'examples')).map((e) => join('examples', e, 'test'))];
  const files: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const name of names) if (/\.(ts|mjs|js|txt)$/.test(name) && !name.endsWith('hooks-coverage.test.ts')) files.push(readFileSync(join(ROOT, dir, name), 'utf8'));
  }
  return files;
}

describe('the hooks', () => {
  it('are each documented in docs/hooks.md, and the table has no row for a hook that does not exist', () => {
    expect([...documented].sort()).toEqual([...HOOKS].sort());
  });

  it('are each used by at least one test', () => {
    const sources = testSources();
    const untested = HOOKS.filter((hook) => !sources.some((s) => s.includes(`hooks.${hook}.`) || s.includes(`'${hook}'`)));
    expect(untested).toEqual([]);
  });

  it('are few: about twenty is plenty', () => {
    expect(HOOKS.length).toBeLessThanOrEqual(26);
  });
});
