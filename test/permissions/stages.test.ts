// Ordering is said with named stages: no plugin does arithmetic on Stage, and every stage is documented.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Stage } from '../../dist/core/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('named stages', () => {
  it('no plugin computes a stage from another (Stage.X + n)', () => {
    const offenders = sources(join(ROOT, 'plugins')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${file.slice(ROOT.length)}:${i + 1}` }))
        .filter(({ line }) => /Stage\.[A-Z_]+\s*[-+]/.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('runs the permission layers in the documented order', () => {
    const order = ['GUARD', 'POLICY', 'TOOL_POLICY', 'MODE', 'ALLOW_RULES', 'DEFAULT', 'PATH_LIMITS', 'CLASSIFY', 'GRANTS', 'INTERACTIVE', 'FLUSH', 'PERSIST', 'LAST', 'RECORD'] as const;
    const values = order.map((name) => Stage[name]);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
  });

  it('lists every stage with its value in the plugin guide', () => {
    const guide = readFileSync(join(ROOT, 'docs/plugins.md'), 'utf8');
    for (const [name, value] of Object.entries(Stage)) expect(guide).toMatch(new RegExp(`^\\| \`${name}\` \\| ${value} \\| .+\\|$`, 'm'));
  });
});
