// A plugin's `kernelApi` range is read with full npm semver rules (prereleases, hyphen ranges),
// through the loader path every plugin takes.
import { describe, expect, it } from 'vitest';
import { definePlugin, KERNEL_API_VERSION } from '../../dist/core/index.js';
import { createTestKernel } from '../../dist/config/test-kit.js';

const builtFor = (kernelApi: string) => definePlugin({ name: 'ranged', kernelApi, apply: () => undefined });

async function loads(kernelApi: string): Promise<boolean> {
  try {
    const t = await createTestKernel({ plugins: [builtFor(kernelApi)], builtins: false });
    await t.close();
    return true;
  } catch (error) {
    expect(error).toMatchObject({
      code: 'ASSISTANT_PLUGIN_KERNEL_API',
      plugin: 'ranged',
      message: `plugin "ranged" (test) needs kernel API ${kernelApi}, but this assistant provides ${KERNEL_API_VERSION}; upgrade assistant or use a version of the plugin built for ${KERNEL_API_VERSION}`,
    });
    return false;
  }
}

describe('kernelApi ranges', () => {
  it('the kernel this test was written for', () => {
    expect(KERNEL_API_VERSION).toBe('2.0.0');
  });

  it('refuses a plugin built for kernel API 1: hooks were removed in 2.0', async () => {
    expect(await loads('^1.0.0')).toBe(false);
    expect(await loads('>=1.0.0 <2')).toBe(false);
    expect(await loads('1.x')).toBe(false);
  });

  it('accepts ranges whose lower bound is a prerelease of the release this kernel is', async () => {
    expect(await loads('^2.0.0-beta')).toBe(true);
    expect(await loads('>2.0.0-beta')).toBe(true);
    expect(await loads('~2.0.0-rc.2')).toBe(true);
  });

  it('refuses a release when the range only admits prereleases below it or the next major', async () => {
    expect(await loads('^3.0.0-alpha')).toBe(false);
    expect(await loads('<2.0.0-rc.1')).toBe(false);
    expect(await loads('2.0.0-beta')).toBe(false);
  });

  it('reads hyphen ranges', async () => {
    expect(await loads('2.0.0 - 3.x')).toBe(true);
    expect(await loads('1.5 - 2')).toBe(true);
    expect(await loads('3.0.0 - 4.x')).toBe(false);
  });

  it('keeps the ranges plugins use', async () => {
    expect(await loads('^2.0.0')).toBe(true);
    expect(await loads('>=2.0.0 <3 || ^4')).toBe(true);
    expect(await loads('~2')).toBe(true);
    expect(await loads('^0.4.0')).toBe(false);
  });

  it('never satisfies a range it cannot parse', async () => {
    expect(await loads('one point oh')).toBe(false);
    expect(await loads('>=')).toBe(false);
  });
});
