// The project config search stops at the repository's root: a config file in a folder above it
// (a shared temp or home folder) belongs to no project and is never read.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();

describe('config search', () => {
  it('does not read a config above the repository root', async () => {
    const outer = makeProject({ '.assistantrc.json': '{"limits":{"maxTurns":7}}', 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/src/x.ts': '' });
    const config = await loadConfig({ cwd: join(outer, 'repo', 'src'), env });
    expect(config.projectFile).toBeUndefined();
    expect(config.values.limits?.maxTurns).not.toBe(7);
    expect(config.projectRoot).toBe(join(outer, 'repo'));
  });

  it("still reads the config at the repository's root and below it", async () => {
    const outer = makeProject({ 'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/.assistantrc.json': '{"limits":{"maxTurns":8}}', 'repo/a/b/x.ts': '' });
    const config = await loadConfig({ cwd: join(outer, 'repo', 'a', 'b'), env });
    expect(config.values.limits?.maxTurns).toBe(8);
    expect(config.projectRoot).toBe(join(outer, 'repo'));
  });
});
