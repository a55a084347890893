import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, AssistantError, ConfigError, formatError } from '../../dist/core/index.js';
import type { RegisteredErrorCode } from '../../dist/core/index.js';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { DEFAULT_PLUGINS } from '../../dist/config/defaults.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Every code a kernel with every built-in plugin registers: the kernel's own and each plugin's. */
async function registeredCodes(): Promise<RegisteredErrorCode[]> {
  const kernel = await createKernel({ config: await loadConfig({ cwd: makeProject(), env: isolatedEnv() }), headless: true });
  expect(kernel.plugins.map((p) => p.name).sort()).toEqual([...DEFAULT_PLUGINS].sort());
  return kernel.errorCodes.list();
}

/** The documented rows, each with the heading it sits under (`kernel` or the plugin's name). */
function documentedRows(): Array<{ code: string; exit: number; owner: string }> {
  const rows: Array<{ code: string; exit: number; owner: string }> = [];
  let owner = '';
  for (const line of docs.split('\n')) {
    const heading = /^#{2,3} (?:The kernel's codes|`([a-z0-9-]+)`)$/.exec(line);
    if (heading) owner = heading[1] ?? 'kernel';
    const row = /^\| `([A-Z0-9_]+)` \| (\d+) \|/.exec(line);
    if (row) rows.push({ code: row[1]!, exit: Number(row[2]), owner });
  }
  return rows;
}

describe('error codes', () => {
  it("are the kernel's own, well-formed and unique", () => {
    const codes = Object.keys(ERROR_CODES);
    for (const code of codes) expect(code).toMatch(/^ASSISTANT_[A-Z0-9_]+$/);
    expect(new Set(codes).size).toBe(codes.length);
    // Codes the built-in plugins own live with them, not in the kernel's table.
    expect(codes.filter((c) => /^ASSISTANT_(MCP|AGENT|REPLAY|SANDBOX|PERMISSION)_/.test(c))).toEqual([]);
  });

  it('registered by the kernel and every built-in are each documented in docs/errors.md, under their owner, with their exit status, and nothing else is', async () => {
    const registered = await registeredCodes();
    expect(registered.filter((c) => c.owner !== 'kernel').length).toBeGreaterThanOrEqual(20);
    const documented = documentedRows();
    expect(documented.map((d) => d.code).sort()).toEqual(registered.map((c) => c.code).sort());
    for (const row of documented) {
      const code = registered.find((c) => c.code === row.code)!;
      expect({ code: row.code, exit: row.exit, owner: row.owner }).toEqual({ code: code.code, exit: code.exit, owner: code.owner });
    }
  });

  it('map to exit statuses the README documents', async () => {
    const exits = new Set((await registeredCodes()).map((e) => e.exit));
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

describe('error names', () => {
  // The CLI and the package's exports run from the minified bundle, whose classes are renamed.
  it("are the classes' own in the bundle, and a plugin's subclass is named after its constructor", async () => {
    const bundle = (await import(new URL('../../dist/bundle/core~index.js', import.meta.url).href)) as Record<string, unknown>;
    const classes = Object.entries(bundle).filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error);
    expect(classes.map(([name]) => name).sort()).toEqual(
      expect.arrayContaining(['AssistantError', 'ConfigError', 'ContextError', 'PermissionError', 'PluginError', 'ProviderError', 'SessionError', 'ToolError']),
    );
    for (const [name, value] of classes) {
      if (!((value as { prototype: object }).prototype instanceof (bundle.AssistantError as typeof AssistantError))) continue;
      const error = new (value as typeof AssistantError)('ASSISTANT_INTERNAL', 'probe');
      expect(error.name, name).toBe(name);
      expect(String(error)).toBe(`${name}: probe`);
    }
    const Base = bundle.ConfigError as typeof ConfigError;
    class MyPluginError extends Base {}
    expect(new MyPluginError('ASSISTANT_INTERNAL', 'x').name).toBe('MyPluginError');
  });
});
