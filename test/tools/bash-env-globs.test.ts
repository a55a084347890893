// The environment policy's globs (`*KEY*`, `LC_*`, a user's `exclude` and `includeOnly`) compared as
// text where they can be: every name is kept or dropped exactly as the case-insensitive regex of the
// glob decides, for names and patterns of any shape (non-ASCII letters that upper-case to ASCII
// included: the regex never matches them to an ASCII letter).
import { describe, expect, it } from 'vitest';
import { applyEnvironmentPolicy } from '../../dist/plugins/tool-bash/env-policy.js';

/** The reference: the glob as the policy's regex (`*` any run, `?` any one character, case-insensitive). */
const reference = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.')}$`, 'is');

const NAME_PARTS = ['A', 'a', 'KEY', 'key', 'Key', 'LC_', 'lc_', 'PASS', 'pass', '_', '1', 'ſ', 'K', 'ß', 'é', 'İ', 'ı', '\n', ' ', '.', '*', '?', '[', 'Z'];
const PATTERN_PARTS = ['*', '?', 'KEY', 'key', 'A', 'LC_', 'PASS', '_', '.', 'S', 'I', 'ß', 'k', '[', ' '];

function pick<T>(parts: readonly T[], next: () => number, most: number): T[] {
  return Array.from({ length: next() % most }, () => parts[next() % parts.length]!);
}

describe('the environment policy globs', () => {
  it('keep (includeOnly) and drop (exclude) exactly the names the regex of the glob matches', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 400; round++) {
      const pattern = pick(PATTERN_PARTS, next, 5).join('');
      const names = Array.from({ length: 12 }, () => pick(NAME_PARTS, next, 6).join('')).filter((name) => name && !name.includes('='));
      const source = Object.fromEntries(names.map((name) => [name, 'value']));
      const expected = names.filter((name) => reference(pattern).test(name)).sort();
      const kept = Object.keys(applyEnvironmentPolicy(source, { ignoreDefaultExcludes: true, includeOnly: [pattern] })).sort();
      expect(kept, `includeOnly ${JSON.stringify(pattern)} over ${JSON.stringify(names)}`).toEqual([...new Set(expected)]);
      const left = Object.keys(applyEnvironmentPolicy(source, { ignoreDefaultExcludes: true, exclude: [pattern] })).sort();
      expect(left, `exclude ${JSON.stringify(pattern)}`).toEqual([...new Set(names.filter((name) => !reference(pattern).test(name)))].sort());
    }
  });

  it('drop names that look like credentials in any letter case, and keep the rest', () => {
    const env = applyEnvironmentPolicy({ my_api_key: 'x', Db_Pass: 'x', DB_PASSWORD: 'x', GITHUB_TOKEN: 'x', PATH: '/bin', LANG: 'C', PASSWORD_HINT_FILE: 'x', KEYBOARD: 'us', 'ſECRET': 'x' });
    expect(Object.keys(env).sort()).toEqual(['LANG', 'PATH', 'ſECRET']);
    const core = applyEnvironmentPolicy({ LC_ALL: 'C', lc_time: 'C', LCX: 'x', HOME: '/h', home: '/h2' }, { inherit: 'core' });
    expect(Object.keys(core).sort()).toEqual(['HOME', 'LC_ALL', 'home', 'lc_time']);
  });
});
