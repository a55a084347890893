import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const schemaFiles = (env: NodeJS.ProcessEnv) => {
  const root = join(env.XDG_CACHE_HOME!, 'assistant', 'schemas');
  return readdirSync(root).flatMap((version) => readdirSync(join(root, version)).map((f) => join(root, version, f)));
};

describe('compiled schema cache', () => {
  it('keeps generated validators between runs, and they judge exactly as freshly compiled ones do', async () => {
    const env = isolatedEnv();
    // A valid project compiles the core schema and every plugin's options schema.
    expect((await runCli(['config', 'validate'], { cwd: makeProject(), env })).code).toBe(0);
    expect(schemaFiles(env).length).toBeGreaterThan(10);
    const dir = makeProject({ '.assistantrc': JSON.stringify({ context: { compaction: { treshold: 0.5 } } }) });
    const first = await runCli(['config', 'validate'], { cwd: dir, env });
    const second = await runCli(['config', 'validate'], { cwd: dir, env });
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(first.stderr);
    expect(second.stderr).toMatch(/treshold.*is not a known key/);
    const core = makeProject({ '.assistantrc': JSON.stringify({ limits: { maxTurns: 'ten' } }) });
    expect((await runCli(['config', 'validate'], { cwd: core, env })).stderr).toContain('/limits/maxTurns: must be integer (got "ten")');
    // Without the cache, the same verdict.
    // The second run judged with the cached code: a planted validator answers.
    const planted = "module.exports.default = function v() { v.errors = [{ instancePath: '/planted', keyword: 'x', message: 'answered from the cache', params: {} }]; return false; };";
    for (const file of schemaFiles(env)) writeFileSync(file, planted);
    expect((await runCli(['config', 'validate'], { cwd: dir, env })).stderr).toContain('/planted: answered from the cache');
    const uncached = await runCli(['config', 'validate'], { cwd: dir, env: { ...env, ASSISTANT_SCHEMA_CACHE: 'off' } });
    expect(uncached.stderr).toBe(first.stderr);
  });

  it('falls back to compiling when a cache file is damaged', async () => {
    const env = isolatedEnv();
    const dir = makeProject({ '.assistantrc': JSON.stringify({ limits: { maxTurns: 0 } }) });
    const first = await runCli(['config', 'validate'], { cwd: dir, env });
    expect(first.code).toBe(2);
    for (const file of schemaFiles(env)) writeFileSync(file, 'module.exports = {{ not javascript');
    const again = await runCli(['config', 'validate'], { cwd: dir, env });
    expect([again.code, again.stderr]).toEqual([2, first.stderr]);
  });
});
