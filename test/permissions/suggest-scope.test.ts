import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { decidePermission, permissionRequestFor, type Kernel } from '../../dist/core/index.js';
import { policyFixture, type PolicyFixture } from './support.js';

// The "yes, always" rule offered for a search outside the project covers the searched folder, never its
// parent, and nothing is offered for the home folder, a folder above it or the file system's root.
let fixture: PolicyFixture;
let kernel: Kernel;

async function suggestion(tool: string, input: Record<string, unknown>): Promise<string | undefined> {
  const request = permissionRequestFor(kernel.tools.get(tool)!, { type: 'tool_call', id: `call-${tool}`, name: tool, input }, {
    projectRoot: kernel.projectRoot, cwd: kernel.cwd, mode: 'default', headless: false,
  });
  const decision = await decidePermission(kernel.hooks, request);
  expect(decision.behavior, JSON.stringify(input)).toBe('ask');
  return decision.suggestedRule;
}

beforeAll(async () => {
  fixture = policyFixture();
  Object.assign(process.env, { HOME: fixture.env.HOME, ASSISTANT_DATA_DIR: fixture.env.ASSISTANT_DATA_DIR });
  mkdirSync(join(fixture.outside, 'deeper'));
  writeFileSync(join(fixture.outside, 'deeper/x.txt'), 'x\n');
  const config = await loadConfig({ cwd: fixture.root, env: fixture.env, noUserConfig: true });
  kernel = await createKernel({ config, headless: false, logLevel: 'silent' });
  await kernel.start();
});

describe('suggested rules for reads outside the project', () => {
  it('covers a searched folder itself, not the folder that holds it', async () => {
    expect(await suggestion('Grep', { pattern: 'x', path: join(fixture.outside, 'deeper') })).toBe(`Read(${join(fixture.outside, 'deeper')}/**)`);
    expect(await suggestion('Glob', { pattern: '*.txt', path: fixture.outside })).toBe(`Read(${fixture.outside}/**)`);
  });

  it("covers a read file's folder", async () => {
    expect(await suggestion('Read', { file_path: join(fixture.outside, 'deeper/x.txt') })).toBe(`Read(${join(fixture.outside, 'deeper')}/**)`);
  });

  it('offers nothing for the home folder, a folder above it, or the root', async () => {
    expect(await suggestion('Grep', { pattern: 'x', path: fixture.home })).toBeUndefined();
    expect(await suggestion('Read', { file_path: join(fixture.home, 'notes.txt') })).toBeUndefined();
    expect(await suggestion('Grep', { pattern: 'x', path: join(fixture.home, '..') })).toBeUndefined();
    expect(await suggestion('Glob', { pattern: '*', path: '/' })).toBeUndefined();
  });

  it('knows the home folder when HOME names it through a symlink', async () => {
    const linked = join(fixture.outside, 'home-link');
    symlinkSync(realpathSync(fixture.home), linked);
    const home = process.env.HOME;
    process.env.HOME = linked;
    try {
      expect(await suggestion('Grep', { pattern: 'x', path: linked })).toBeUndefined();
      expect(await suggestion('Read', { file_path: join(linked, 'notes.txt') })).toBeUndefined();
    } finally {
      process.env.HOME = home;
    }
  });
});
