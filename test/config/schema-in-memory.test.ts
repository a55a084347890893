import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
