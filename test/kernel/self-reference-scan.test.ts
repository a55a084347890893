// The self-reference hooks cost a start a thread (~250 ms, ~25 MiB): a plugin from outside the package
// gets them only when it could import the package by name. A self-contained plugin (Node's built-ins
// and its own relative files only) skips them; anything the scan cannot tell installs them.
import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { importsOnlyBuiltins, resolvesToRunningCopy } from '../../dist/core/kernel/imports-scan.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const scan = (files: Record<string, string>, entry = 'plugin.mjs') => importsOnlyBuiltins(join(makeProject(files), entry));

describe('which modules can import the package by name', () => {
  it('a plugin of built-ins and its own relative files (cycles too) cannot', () => {
    expect(
      scan({
        'plugin.mjs': "import { readFileSync } from 'node:fs';\nimport path from 'path';\nimport { helper } from './lib/helper.mjs';\nexport { more } from './lib/more.mjs';\nimport './side.mjs';\nconst later = () => import('./lib/lazy.mjs');\nexport default { name: 'p', apply() {} };\n",
        'lib/helper.mjs': "import { more } from './more.mjs';\nexport const helper = 1;\n",
        'lib/more.mjs': "import { helper } from './helper.mjs';\nexport const more = 2;\n",
        'lib/lazy.mjs': "export const lazy = await import('node:os');\n",
        'side.mjs': '',
      }),
    ).toBe(true);
  });

  it.each([
    ['a bare import', "import { definePlugin } from '@assistant-cli/assistant';"],
    ['another package', "import x from 'lodash';"],
    ['a re-export of a package', "export * from '@assistant-cli/assistant/kits/tool';"],
    ['a side-effect import of a package', "import 'some-package';"],
    ['a computed import()', 'const name = "x"; await import(name);'],
    ['a template import()', 'await import(`@assistant-cli/assistant`);'],
    ['an import() with options', "await import('@assistant-cli/assistant', { with: {} });"],
    ['a require of a package', "const x = require('some-package');"],
    ['a computed require', 'const x = require(name);'],
    ['createRequire', "import { createRequire } from 'node:module'; const r = createRequire(import.meta.url);"],
    ['a mention in a comment (conservative)', "// import x from '@assistant-cli/assistant'"],
    ['an absolute path', "import x from '/tmp/elsewhere.mjs';"],
  ])('%s can (or cannot be told apart)', (_what, line) => {
    expect(scan({ 'plugin.mjs': `${line}\nexport default {};\n` })).toBe(false);
  });

  it('a relative file that imports the package, or one that is missing, counts for the plugin', () => {
    expect(scan({ 'plugin.mjs': "import './lib/a.mjs';\n", 'lib/a.mjs': "import { AssistantError } from '@assistant-cli/assistant';\n" })).toBe(false);
    expect(scan({ 'plugin.mjs': "import './lib/missing.mjs';\n" })).toBe(false);
  });
});

describe('a module that resolves the package to the running copy itself', () => {
  const repo = fileURLToPath(new URL('../../', import.meta.url));
  const NAME = '@assistant-cli/assistant';
  it('needs no hooks when its node_modules links this very copy; another copy or none does not count', () => {
    const linked = makeProject({ 'plugin.mjs': "import '@assistant-cli/assistant';\n" });
    mkdirSync(join(linked, 'node_modules/@assistant-cli'), { recursive: true });
    symlinkSync(repo, join(linked, 'node_modules/@assistant-cli/assistant'), 'dir');
    expect(resolvesToRunningCopy(join(linked, 'plugin.mjs'), NAME, repo)).toBe(true);
    const other = makeProject({ 'plugin.mjs': '', 'node_modules/@assistant-cli/assistant/package.json': JSON.stringify({ name: NAME, exports: { './package.json': './package.json' } }) });
    expect(resolvesToRunningCopy(join(other, 'plugin.mjs'), NAME, repo)).toBe(false);
    expect(resolvesToRunningCopy(join(makeProject({ 'plugin.mjs': '' }), 'plugin.mjs'), NAME, repo)).toBe(false);
  });
});

// Hooks are process-wide: checked in a child that boots the kernel with the project's plugin, then
// imports the package by name from the project (outside this repository it resolves only through them).
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const probe = `
const dist = process.argv[2];
const { loadConfig } = await import(dist + 'config/load.js');
const { createKernel } = await import(dist + 'core/kernel/kernel.js');
const kernel = await createKernel({ config: await loadConfig({ cwd: process.cwd(), env: process.env, grantTrust: true }), headless: true });
let selfImport;
try {
  await import('@assistant-cli/assistant');
  selfImport = 'resolved';
} catch (error) {
  selfImport = error.code;
}
console.log(JSON.stringify({ plugins: kernel.plugins.map((p) => p.name), selfImport }));
`;

async function boot(plugin: string) {
  const dir = makeProject({ 'probe.mjs': probe, 'my-plugin.mjs': plugin, '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' }, plugins: ['./my-plugin.mjs'] }) });
  const { stdout } = await promisify(execFile)(process.execPath, ['probe.mjs', dist], { cwd: dir, env: { ...isolatedEnv(), ANTHROPIC_API_KEY: 'k' }, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { plugins: string[]; selfImport: string };
}

describe('the self-reference hooks for a project plugin', () => {
  it('are not installed for a self-contained plugin, which still loads', async () => {
    const result = await boot("import { hostname } from 'node:os';\nexport default { name: 'self-contained', apply() { hostname(); } };\n");
    expect(result.plugins).toContain('self-contained');
    expect(result.selfImport).toBe('ERR_MODULE_NOT_FOUND');
  }, 60_000);

  it('are installed for a plugin that imports the package, which gets the running copy', async () => {
    const result = await boot("import { definePlugin } from '@assistant-cli/assistant';\nexport default definePlugin({ name: 'uses-api', apply() {} });\n");
    expect(result.plugins).toContain('uses-api');
    expect(result.selfImport).toBe('resolved');
  }, 60_000);
});
