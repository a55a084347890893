// The built CLI imports every built-in plugin, tool module and the pool's worker through runtimeUrl,
// which maps a file of tsc's tree to its bundle entry by a rule (path with `/` as `~`). A file the
// bundle lacks would silently load from tsc's tree, a second copy of the kernel beside the bundle's.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const pkg = JSON.parse(readFileSync(join(dist, '../package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> };

/** The bundle file the rule names for a file of tsc's tree. */
const bundled = (file: string) => join(dist, 'bundle', relative(dist, file).split('/').join('~'));

/** Every file of the bundle a bundle file statically imports, transitively (esbuild writes `from "./x.js"`). */
function bundleGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:^|[;\s])(?:import|export)\s*(?:[^;]*?\sfrom\s*)?"(\.\/[^"]+)"/g)) bundleGraph(join(dist, 'bundle', spec), seen);
  return seen;
}

/** The argument of every `import(...)` call in `code` (parentheses balanced). */
function dynamicImports(code: string): string[] {
  return [...code.matchAll(/\bimport\(/g)].map((m) => {
    let depth = 1;
    let i = m.index! + m[0].length;
    for (const start = i; i < code.length; i++) {
      if (code[i] === '(') depth++;
      else if (code[i] === ')' && --depth === 0) return code.slice(start, i).trim();
    }
    return code.slice(m.index!);
  });
}

describe('the runtime bundle', () => {
  it('has an entry for every built-in plugin and every tool module of the default preset', async () => {
    const dir = makeProject({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }) });
    const kernel = await createKernel({ config: await loadConfig({ cwd: dir, env: isolatedEnv({ ANTHROPIC_API_KEY: 'k' }) }), headless: true });
    const plugins = kernel.plugins.map((plugin) => plugin.source);
    const tools = kernel.tools.list().flatMap((tool) => (tool.module ? [fileURLToPath(tool.module)] : []));
    expect(plugins.length).toBeGreaterThan(30);
    expect(tools.length).toBeGreaterThan(5);
    const missing = [...plugins, ...tools, join(dist, 'core/tools/worker.js'), join(dist, 'bin/cli.js')].filter((file) => !existsSync(bundled(file)));
    expect(missing).toEqual([]);
  });

  it("serves the package's exports from the bundle", () => {
    const targets = Object.entries(pkg.exports).filter(([subpath]) => subpath !== './package.json');
    expect(targets.length).toBeGreaterThan(8);
    for (const [subpath, target] of targets) {
      const file = typeof target === 'string' ? target : target.default;
      expect(file, subpath).toMatch(/^\.\/dist\/bundle\/[^/]+\.js$/);
      expect(existsSync(join(dist, '..', file)), `${subpath} → ${file}`).toBe(true);
    }
  });

  it('imports our own modules only by a literal specifier or through runtimeUrl', () => {
    // A computed import of one of our files (`import(new URL('./x.js', import.meta.url).href)`)
    // escapes the bundle and loads tsc's tree: a second kernel. Lazy loading must write
    // `import('./x.js')`, which esbuild turns into a chunk. The rest import files that are not ours.
    const outside = new Set([
      'pathToFileURL(await realpath(file)).href', // a JavaScript config file of the user's (config/load.ts)
      'pathToFileURL(file).href', // a web search backend the config names (tool-websearch)
      'BUNDLED.href', // a provider SDK's single-file bundle in dist/vendor/ (no kernel in it)
    ]);
    const computed = readdirSync(join(dist, 'bundle'))
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => dynamicImports(readFileSync(join(dist, 'bundle', file), 'utf8')))
      .filter((expr) => !/^["'`]/.test(expr));
    expect(computed.length).toBeGreaterThan(3);
    expect(computed.filter((expr) => !expr.startsWith('runtimeUrl(') && !outside.has(expr))).toEqual([]);
  });

  it("keeps a tool module's chunks free of the kernel, as the unbundled worker graphs are", () => {
    const workers = ['core~tools~worker.js', 'plugins~tools-fs~read.worker.js', 'plugins~tools-fs~grep.worker.js', 'plugins~tool-bash~bash.worker.js'];
    for (const worker of workers) {
      const files = bundleGraph(join(dist, 'bundle', worker));
      const code = [...files].map((file) => readFileSync(file, 'utf8')).join('\n');
      expect(files.size, worker).toBeGreaterThan(1);
      // tapable is bundled into the chunks (esbuild names each bundled package file in a comment).
      expect(code, worker).not.toMatch(/function createKernel\(|from "tapable"|node_modules\/tapable\/|from "ajv"/);
    }
  });
});
