// A built-in plugin uses only codes it can vouch for: the kernel's, or the ones it declares itself.
// A code borrowed from another plugin would vanish (and exit 1) whenever that plugin is disabled.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** The quoted error codes in the sources beside a built-in plugin's entry (tests and docs aside). */
function codesUsedBy(entry: string): Set<string> {
  // The built entry is dist/plugins/<folder>/index.js; its sources are plugins/<folder>/.
  const dir = join(ROOT, 'plugins', relative(join(ROOT, 'dist/plugins'), dirname(entry)));
  const used = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/['"`](ASSISTANT_[A-Z0-9_]+)['"`]/g)) used.add(m[1]!);
  }
  return used;
}

describe('built-in plugins', () => {
  it("use only the kernel's codes and their own", async () => {
    const kernel = await createKernel({ config: await loadConfig({ cwd: makeProject(), env: isolatedEnv() }), headless: true });
    const borrowed: string[] = [];
    for (const plugin of kernel.plugins)
      for (const code of codesUsedBy(plugin.source)) {
        const owner = kernel.errorCodes.get(code)?.owner;
        if (owner !== 'kernel' && owner !== plugin.name) borrowed.push(`${plugin.name} uses ${code} (${owner ? `owned by ${owner}` : 'declared by no one'})`);
      }
    expect(borrowed).toEqual([]);
  });
});
