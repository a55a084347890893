// Plugins named by package are found through the package's `exports` the way Node's `import` finds
// them: conditions in the package's key order, the most specific subpath pattern, `null` exclusions,
// and never a file outside the package.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const env = isolatedEnv();

const plugin = (name: string) => `export default { name: ${JSON.stringify(name)}, apply() {} };\n`;

/** A project with `node_modules/pkg` holding `files` and a package.json whose `exports` is `exports`. */
function projectWithPackage(exports: unknown, files: Record<string, string>, plugins: string[], extra: Record<string, string> = {}) {
  const pkgFiles = Object.fromEntries(Object.entries(files).map(([path, content]) => [`node_modules/pkg/${path}`, content]));
  return makeProject({
    'node_modules/pkg/package.json': JSON.stringify({ name: 'pkg', version: '1.0.0', type: 'module', main: 'main.js', exports }),
    ...pkgFiles,
    ...extra,
    '.assistantrc': JSON.stringify({ plugins }),
  });
}

async function loadedFrom(dir: string): Promise<Record<string, string>> {
  const kernel = await createKernel({ config: await loadConfig({ cwd: dir, env }), headless: true });
  return Object.fromEntries(kernel.plugins.filter((p) => p.source.includes('node_modules')).map((p) => [p.name, p.source.slice(dir.length + 1)]));
}

async function refused(dir: string): Promise<unknown> {
  return loadConfig({ cwd: dir, env })
    .then((config) => createKernel({ config, headless: true }))
    .then(
      () => 'loaded',
      (error: unknown) => error,
    );
}

describe('plugin packages with exports', () => {
  it('takes the first of node/import/default in the order the package lists its conditions', async () => {
    const dir = projectWithPackage(
      { '.': { types: './index.d.ts', require: './cjs.cjs', node: { import: './node-esm.js', require: './node.cjs' }, default: './any.js' } },
      { 'node-esm.js': plugin('node-esm'), 'any.js': plugin('any'), 'cjs.cjs': 'module.exports = {}', 'main.js': plugin('main') },
      ['pkg'],
    );
    expect(await loadedFrom(dir)).toEqual({ 'node-esm': 'node_modules/pkg/node-esm.js' });
  });

  it('picks the most specific subpath pattern, whatever order the map lists them in', async () => {
    const dir = projectWithPackage(
      { '.': './main.js', './*': './dist/*.js', './plugins/*': './plugins/*/index.js' },
      { 'main.js': plugin('main'), 'dist/plugins/lint.js': plugin('wrong'), 'plugins/lint/index.js': plugin('lint'), 'dist/extra.js': plugin('extra') },
      ['pkg/plugins/lint', 'pkg/extra'],
    );
    expect(await loadedFrom(dir)).toEqual({ lint: 'node_modules/pkg/plugins/lint/index.js', extra: 'node_modules/pkg/dist/extra.js' });
  });

  it('does not load a subpath the package excludes with null', async () => {
    const dir = projectWithPackage(
      { './*': './dist/*.js', './internal/*': null },
      { 'dist/internal/secret.js': plugin('secret') },
      ['pkg/internal/secret'],
    );
    expect(await refused(dir)).toMatchObject({ code: 'ASSISTANT_PLUGIN_NOT_FOUND', message: expect.stringContaining('"pkg/internal/secret"') });
  });

  it('does not fall back to main for a subpath the exports do not name', async () => {
    const dir = projectWithPackage({ '.': './main.js' }, { 'main.js': plugin('main'), 'hidden.js': plugin('hidden') }, ['pkg/hidden']);
    expect(await refused(dir)).toMatchObject({ code: 'ASSISTANT_PLUGIN_NOT_FOUND' });
  });

  it('never resolves to a file outside the package, through a crafted spec or a crafted map', async () => {
    const outside = { 'node_modules/evil.js': plugin('evil'), 'node_modules/sibling/index.js': plugin('sibling') };
    const bySpec = projectWithPackage({ './*': './*' }, {}, ['pkg/../evil'], outside);
    expect(await refused(bySpec)).toMatchObject({ code: 'ASSISTANT_PLUGIN_NOT_FOUND' });
    const byMap = projectWithPackage({ '.': '../sibling/index.js' }, {}, ['pkg'], outside);
    expect(await refused(byMap)).toMatchObject({ code: 'ASSISTANT_PLUGIN_NOT_FOUND' });
  });

  it('tries a fallback array in order', async () => {
    const dir = projectWithPackage({ '.': [{ worker: './worker.js' }, './fallback.js'] }, { 'fallback.js': plugin('fallback'), 'worker.js': plugin('worker') }, ['pkg']);
    expect(await loadedFrom(dir)).toEqual({ fallback: 'node_modules/pkg/fallback.js' });
  });

  it('resolves a preset named in extends through the same exports', async () => {
    const dir = makeProject({
      'node_modules/team-preset/package.json': JSON.stringify({ name: 'team-preset', exports: { './strict': { import: './strict.json', default: './loose.json' } } }),
      'node_modules/team-preset/strict.json': JSON.stringify({ limits: { maxTurns: 3 } }),
      'node_modules/team-preset/loose.json': JSON.stringify({ limits: { maxTurns: 99 } }),
      '.assistantrc': JSON.stringify({ extends: 'team-preset/strict' }),
    });
    const config = await loadConfig({ cwd: dir, env });
    expect(config.values.limits?.maxTurns).toBe(3);
  });
});
