import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, AssistantError, ConfigError, formatError } from '../../dist/core/index.js';

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('error codes', () => {
  const codes = Object.keys(ERROR_CODES);

  it('are well-formed and unique', () => {
    for (const code of codes) expect(code).toMatch(/^ASSISTANT_[A-Z0-9_]+$/);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('are each documented in docs/errors.md with their exit status, and nothing else is', () => {
    const documented = [...docs.matchAll(/^\| `(ASSISTANT_[A-Z0-9_]+)` \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(documented.map(([c]) => c).sort()).toEqual([...codes].sort());
    for (const [code, exit] of documented) expect(exit).toBe(ERROR_CODES[code as keyof typeof ERROR_CODES].exit);
  });

  it('map to exit statuses the README documents', () => {
    const exits = new Set(Object.values(ERROR_CODES).map((e) => e.exit));
    for (const exit of exits) expect(readme).toMatch(new RegExp(`^\\| ${exit} \\|`, 'm'));
  });

  it('format as one line without --debug, with the cause chain with it', () => {
    const error = new ConfigError('ASSISTANT_CONFIG_INVALID', 'x.yaml: /a: must be string', { cause: new Error('root cause') });
    expect(error).toBeInstanceOf(AssistantError);
    expect(error.exitCode).toBe(2);
    expect(formatError(error)).toBe('ASSISTANT_CONFIG_INVALID: x.yaml: /a: must be string');
    expect(formatError(error, true)).toContain('Caused by: Error: root cause');
    expect(formatError(new TypeError('oops'))).toBe('ASSISTANT_INTERNAL: oops (run with --debug for details)');
  });
});
