import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreConfigSchema } from '../../dist/config/schema.js';
import { precompiledSchemas as bashSchemas } from '../../dist/plugins/tool-bash/index.js';
import { serversSchema } from '../../dist/plugins/mcp/schema.js';
import { ajv, compileSchema, precompiledName, shippedValidators } from '../../dist/core/util/json-validate.js';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('schema validators', () => {
  it('are compiled in memory: no generated code is kept in the user-writable cache for a later run to evaluate', async () => {
    const env = isolatedEnv();
    const dir = makeProject({ '.assistantrc': JSON.stringify({ context: { compaction: { treshold: 0.5 } } }) });
    const first = await runCli(['config', 'validate'], { cwd: dir, env });
    expect(first.code).toBe(2);
    expect(first.stderr).toMatch(/treshold.*is not a known key/);
    // A session boots the kernel, which validates every plugin's options.
    await runCli(['sessions', 'list'], { cwd: makeProject(), env });
    expect(filesBelow(env.XDG_CACHE_HOME!).filter((f) => /schemas|\.cjs$/.test(f))).toEqual([]);
    const again = await runCli(['config', 'validate'], { cwd: dir, env });
    expect([again.code, again.stderr]).toEqual([2, first.stderr]);
  }, 60_000);

  it('for the built-in schemas come precompiled with the package, and judge as freshly compiled ones do', () => {
    expect(existsSync(new URL('../../dist/schemas/validators.cjs', import.meta.url))).toBe(true);
    expect(typeof shippedValidators()?.[precompiledName(coreConfigSchema as object)]).toBe('function');
    const shipped = compileSchema(coreConfigSchema);
    const fresh = ajv().compile(structuredClone(coreConfigSchema) as object);
    // A compiled validator carries its compile environment; a standalone one does not.
    expect((shipped as { schemaEnv?: unknown }).schemaEnv).toBeUndefined();
    expect((fresh as { schemaEnv?: unknown }).schemaEnv).toBeDefined();
    // Lengths (minLength) are counted in code points, by the package's own helper (a surrogate pair is one).
    const lengths = [{ provider: { name: '' } }, { provider: { name: '\u{1F600}' } }, { extends: ['base.json', ''] }, { permissions: { allow: ['\uD800'] } }];
    for (const value of [{ limits: { maxTurns: 'ten' } }, { permissions: { mode: 'yolo' } }, { sandbox: { mode: 'off', extra: 1 } }, { provider: { name: 'x' } }, ...lengths]) {
      expect(shipped(structuredClone(value))).toBe(fresh(structuredClone(value)));
      expect(shipped.errors ?? null).toEqual(fresh.errors ?? null);
    }
  });

  it('count a string\'s length in code points, as freshly compiled ones do', () => {
    // mcpServers' names: at most 64 characters. 64 emoji are 128 UTF-16 units, 64 code points.
    expect(typeof shippedValidators()?.[precompiledName(serversSchema as object)]).toBe('function');
    const shipped = compileSchema(serversSchema);
    const fresh = ajv().compile(structuredClone(serversSchema) as object);
    const entry = { command: 'x' };
    for (const name of ['\u{1F600}'.repeat(64), '\u{1F600}'.repeat(65), 'a'.repeat(64), 'a'.repeat(65), '\uD800'.repeat(64)]) {
      expect(shipped({ [name]: entry }), name).toBe(fresh({ [name]: entry }));
    }
    expect(shipped({ ['\u{1F600}'.repeat(64)]: entry })).toBe(true);
    expect(shipped({ ['\u{1F600}'.repeat(65)]: entry })).toBe(false);
  });

  it("include every shape of Bash's input, whichever the build machine's sandbox registered", () => {
    const shapes = bashSchemas();
    expect(shapes.map((schema) => Object.keys(schema.properties ?? {}).includes('network'))).toEqual([false, false, true]);
    for (const schema of shapes) expect(typeof shippedValidators()?.[precompiledName(schema as object)]).toBe('function');
    // A copy with its keys in another order is not the same schema text: it is compiled in memory.
    const reordered = Object.fromEntries(Object.entries(shapes[0]!).reverse());
    expect(shippedValidators()?.[precompiledName(reordered)]).toBeUndefined();
  });
});
