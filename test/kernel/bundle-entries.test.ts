// The built CLI imports every built-in plugin, tool module and the pool's worker through runtimeUrl (importRuntime),
// which maps a file of tsc's tree to its bundle entry by a rule (path with `/` as `~`). A file the
// bundle lacks would silently load from tsc's tree, a second copy of the kernel beside the bundle's.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { isolatedEnv, makeProject } from '../support/project.js';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const pkg = JSON.parse(readFileSync(join(dist, '../package.json'), 'utf8')) as { exports: Record<string, string | { default: string }> };

/** The bundle file the rule names for a file of tsc's tree. */
const bundled = (file: string) => join(dist, 'bundle', relative(dist, file).split('/').join('~'));

/** What the bundle holds, written by the build (config/bundle-runtime.mjs): the minified text no longer shows it. */
interface Shape {
  /** runtime.cjs and tools.cjs: input files relative to the package (tsc's tree and bundled packages), and imports. */
  bundles: Record<string, { inputs: string[]; imports: { path: string; kind: string; external?: boolean }[] }>;
  /** Each entry (dist-relative) and the bundles that hold it. */
  entries: Record<string, string[]>;
  /** The static imports of every input, as the ES module graph has them. */
  inputs: Record<string, string[]>;
}
const shape = JSON.parse(readFileSync(join(dist, 'bundle/shape.json'), 'utf8')) as Shape;

/** Every input an input loads by static imports, itself included. */
function staticGraph(input: string, seen = new Set<string>()): Set<string> {
  if (seen.has(input)) return seen;
  seen.add(input);
  for (const imported of shape.inputs[input] ?? []) staticGraph(imported, seen);
  return seen;
}

/** The argument of every `import(...)` call in a JavaScript file, as written (comments are not calls). */
function dynamicImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) found.push(node.arguments[0]?.getText(source) ?? '');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
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
    ]);
    // Read in the files the bundle was built from (tsc's output, the expressions as written).
    const ours = [...new Set(Object.values(shape.bundles).flatMap((bundle) => bundle.inputs))].filter((input) => input.startsWith('dist/'));
    expect(ours.length).toBeGreaterThan(100);
    const computed = ours
      .flatMap((input) => dynamicImports(join(dist, '..', input)))
      .filter((expr) => !/^["'`]/.test(expr));
    expect(computed.length).toBeGreaterThan(2);
    expect(computed.filter((expr) => !expr.startsWith('runtimeUrl(') && !outside.has(expr))).toEqual([]);
  });

  it("gives the pool threads a bundle of their own, free of the kernel, as the unbundled worker graphs are", () => {
    const workers = ['core/tools/worker.js', 'plugins/tools-fs/read.worker.js', 'plugins/tools-fs/grep.worker.js', 'plugins/tool-bash/bash.worker.js', 'core/kits/tool/index.js'];
    const mainThread = (input: string) => input === 'dist/core/kernel/kernel.js' || input.includes('node_modules/tapable/') || /^vendored:|-deps\.cjs$/.test(input);
    for (const worker of workers) {
      expect(shape.entries[worker], worker).toEqual(['runtime.cjs', 'tools.cjs']);
      const graph = [...staticGraph(`dist/${worker}`)];
      expect(graph.length, worker).toBeGreaterThan(1);
      expect(graph.filter(mainThread), worker).toEqual([]);
    }
    const tools = shape.bundles['tools.cjs']!;
    expect(tools.inputs).toContain('dist/core/tools/worker.js');
    expect(tools.inputs.filter(mainThread)).toEqual([]);
    // Nor the main thread's CommonJS packages (tapable among them: dist/vendor/*-deps.cjs).
    expect(tools.imports.filter((i) => i.external && /^(ajv|tapable)(\/|$)|-deps\.cjs$/.test(i.path))).toEqual([]);
    // The main thread's entries are not in it: a pool thread never compiles the kernel.
    expect(shape.entries['bin/cli.js']).toEqual(['runtime.cjs']);
    expect(shape.entries['core/kits/agent/index.js']).toEqual(['runtime.cjs']);
  });

  it('leaves no import() in the CommonJS bundles: code compiled with a code cache cannot import (runtime.js does it)', () => {
    const files = readdirSync(join(dist, 'bundle')).filter((file) => file.endsWith('.cjs') && file.startsWith('r') || file === 'tools.cjs');
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      const calls = dynamicImports(join(dist, 'bundle', file));
      expect(calls, file).toEqual([]);
    }
    const external = dynamicImports(join(dist, 'bundle', 'runtime.js'));
    expect(external).toEqual(['specifier']);
  });

  it('keeps code that is only imported lazily out of runtime.cjs, in parts that hold each module once', () => {
    const parts = Object.keys(shape.bundles).filter((file) => /^runtime-.+\.cjs$/.test(file));
    expect(parts).toContain('runtime-permissions.cjs');
    expect(parts).toContain('runtime-ui-terminal.cjs');
    const own = (file: string) => shape.bundles[file]!.inputs.filter((input) => input.startsWith('dist/'));
    // The permission engine's shell analysis, the terminal app: neither is compiled by a one-shot answer.
    expect(own('runtime-permissions.cjs')).toContain('dist/plugins/permissions/policy/engine.js');
    expect(own('runtime-ui-terminal.cjs')).toContain('dist/plugins/ui-terminal/app.js');
    expect(own('runtime.cjs')).not.toContain('dist/plugins/permissions/policy/engine.js');
    expect(own('runtime.cjs')).not.toContain('dist/plugins/ui-terminal/app.js');
    // Nor the entries no start loads: the tools' modules (run on the main thread only for a small
    // call) and the test kit; runtime.cjs's getter for each loads its part.
    expect(own('runtime-tools-fs.cjs')).toContain('dist/plugins/tools-fs/read.worker.js');
    expect(own('runtime-test-kit.cjs')).toContain('dist/core/testing/fake-llm/server.js');
    for (const module of ['dist/plugins/tools-fs/read.worker.js', 'dist/plugins/tools-fs/edit.worker.js', 'dist/config/test-kit.js', 'dist/core/testing/fake-llm/server.js'])
      expect(own('runtime.cjs'), module).not.toContain(module);
    // Grep's scan helper is a thread's own script (it reads workerData as it loads): never in a part the main thread runs.
    expect(parts.filter((file) => own(file).includes('dist/plugins/tools-fs/grep-scan.worker.js'))).toEqual([]);
    // One copy of each of our modules per thread: a module is in runtime.cjs or in one part.
    const holders = new Map<string, string[]>();
    for (const file of ['runtime.cjs', ...parts]) for (const input of own(file)) holders.set(input, [...(holders.get(input) ?? []), file]);
    expect([...holders].filter(([, files]) => files.length > 1)).toEqual([]);
    // A part takes runtime.cjs's modules from it, and packages from dist/vendor as runtime.cjs does (no import of tsc's tree).
    for (const part of parts) expect(shape.bundles[part]!.imports.filter((i) => i.external && i.path.startsWith('.') && !/^(\.\/runtime|\.\.\/vendor\/[\w-]+)\.cjs$/.test(i.path)), part).toEqual([]);
  });

  it("runs each part's modules beside runtime.cjs, loading nothing from tsc's tree", () => {
    // In a child: every module of every part runs; what they import from runtime.cjs must resolve there.
    const script = `
      const { readdirSync } = require('node:fs');
      const dir = ${JSON.stringify(join(dist, 'bundle'))};
      require(dir + '/runtime.cjs').setImport((specifier) => import(specifier));
      let modules = 0;
      for (const file of readdirSync(dir).filter((f) => /^runtime-.+\\.cjs$/.test(f))) {
        const part = require(dir + '/' + file);
        for (const path of Object.keys(part)) { if (typeof part[path] !== 'object') throw new Error(file + ' ' + path); modules++; }
      }
      const loaded = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(dist)}) && !/\\/(bundle|vendor|schemas)\\//.test(f));
      console.log(JSON.stringify({ modules, loaded }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } }).trim()) as { modules: number; loaded: string[] };
    expect(out.modules).toBeGreaterThan(10);
    expect(out.loaded).toEqual([]);
  });

  it("takes the main thread's picomatch and ignore from dist/vendor/match-deps.cjs, and bundles a pool thread's own", () => {
    // A task's code cache of the path matchers lives in the vendor file's cache: runtime.cjs's, which
    // every one-shot answer deserializes, holds none of them.
    const packages = (file: string) => shape.bundles[file]!.inputs.filter((input) => /node_modules\/(picomatch|ignore)\//.test(input));
    for (const file of Object.keys(shape.bundles).filter((name) => name.startsWith('runtime'))) expect(packages(file), file).toEqual([]);
    expect(shape.bundles['runtime.cjs']!.imports.map((i) => i.path)).toContain('../vendor/match-deps.cjs');
    expect(packages('tools.cjs')).toEqual(expect.arrayContaining([expect.stringContaining('node_modules/picomatch/'), expect.stringContaining('node_modules/ignore/')]));
  });

  it('carries the prompts and tool descriptions beside the modules as text: a start opens none of them', () => {
    const bundles = readdirSync(join(dist, 'bundle')).filter((file) => file.endsWith('.cjs'));
    for (const file of bundles) expect(readFileSync(join(dist, 'bundle', file), 'latin1'), file).not.toMatch(/new URL\("\.\/[\w-]+\.txt"/);
    // The text itself (the minifier may write it as a template literal: its first line is compared).
    const runtime = readFileSync(join(dist, 'bundle/runtime.cjs'), 'utf8');
    for (const text of ['plugins/tools-fs/read.txt', 'plugins/tool-bash/bash.txt', 'plugins/system-prompt/base-prompt.txt'])
      expect(runtime).toContain(readFileSync(join(dist, text), 'utf8').split('\n')[0]);
  });

  it('runs picomatch and ignore through their lazy stand-ins: called as functions, their properties read', () => {
    // The runtime bundles bind the two packages on first use (a one-shot answer runs neither); the
    // stand-ins must act as the packages: the secret matcher calls picomatch, Glob reads picomatch.scan
    // and walks with ignore() rules from a .gitignore.
    const script = `
      const { mkdtempSync, mkdirSync, writeFileSync, realpathSync } = require('node:fs');
      const { join } = require('node:path');
      const runtime = require(${JSON.stringify(join(dist, 'bundle/runtime.cjs'))});
      const { createSecretMatcher } = runtime['core/kits/fs/index.js'];
      const isSecret = createSecretMatcher({ extra: ['*.notes', 'conf/**/plain.txt'], allow: ['.env.example'] });
      const root = realpathSync(mkdtempSync(join(require('node:os').tmpdir(), 'lazy-packages-')));
      mkdirSync(join(root, 'src/deep'), { recursive: true });
      for (const file of ['src/a.ts', 'src/deep/b.ts', 'src/skipped.ts', 'src/c.js']) writeFileSync(join(root, file), '');
      writeFileSync(join(root, '.gitignore'), 'skipped.ts\\n');
      const glob = runtime['plugins/tools-fs/glob.worker.js'];
      glob.run({ tool: 'Glob', callId: 'g', input: { pattern: 'src/**/*.ts' }, projectRoot: root, cwd: root, options: {} }, { signal: new AbortController().signal, trackProcess() {} }).then((result) => {
        console.log(JSON.stringify({ notes: isSecret('docs/a.notes') ?? null, plain: isSecret('conf/x/plain.txt') ?? null, example: isSecret('.env.example') ?? null, glob: result.content }));
      });
    `;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } }).trim()) as Record<string, unknown>;
    expect(out.notes).toContain('permissions.secrets');
    expect(out.plain).toContain('permissions.secrets');
    expect(out.example).toBeNull();
    const listed = JSON.stringify(out.glob);
    expect(listed).toContain('a.ts');
    expect(listed).toContain('b.ts');
    expect(listed).not.toContain('skipped.ts');
    expect(listed).not.toContain('c.js');
  });
});
