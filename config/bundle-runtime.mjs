// Build step: bundles the compiled runtime (tsc's dist/ tree, not the TypeScript sources) into a flat
// folder, dist/bundle/. A one-shot run loaded ~350 of our own ES modules, and Node's loader spent
// ~110 ms resolving, reading and linking them; a few dozen chunks cost a fraction of that.
// - Entries are the files something loads by name at run time (the CLI, the package's exports, the
//   pool's worker, every built-in plugin, every tool module). Each is named by its dist-relative path
//   with `/` as `~` (plugins/tools-fs/index.js → bundle/plugins~tools-fs~index.js); code they share
//   goes into chunks beside them, so a thread that reaches the kernel by any of them has one copy.
// - `import.meta.url` in every input file becomes the file's ORIGINAL location, written relative to
//   the bundle folder: assets, createRequire, built-in checks and tool module URLs keep the meaning
//   they have in the tsc tree. The folder is flat so that relative URL is right from every chunk.
// - runtimeUrl() (core/util/runtime-module.ts) maps a dist URL with an entry to that entry when the
//   ASSISTANT_BUNDLE_ENTRIES constant is defined, i.e. only in this bundle.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'bundle');
const posix = (path) => path.split(sep).join('/');
const distImport = (path) => import(pathToFileURL(join(dist, path)).href);

/** Dist-relative paths of every file loaded by name at run time. */
async function entryPaths() {
  const kits = readdirSync(join(dist, 'core/kits')).map((kit) => `core/kits/${kit}/index.js`);
  const fixed = ['bin/cli.js', 'core/index.js', ...kits, 'config/sdk.js', 'config/test-kit.js', 'core/tools/worker.js'];
  // The built-in plugins, found exactly as the loader finds them from the default preset.
  const { defaultLayer } = await distImport('config/defaults.js');
  const { resolveModule } = await distImport('core/kernel/resolve-module.js');
  const layer = defaultLayer();
  const plugins = layer.values.plugins.map((spec) => {
    const file = resolveModule(spec, layer.baseDir);
    if (!file) throw new Error(`bundle-runtime: built-in plugin ${spec} has no file under ${layer.baseDir}`);
    return posix(relative(dist, file));
  });
  // Tool modules a ToolDefinition names by URL: `*.worker.js` beside their plugin.
  const tools = readdirSync(join(dist, 'plugins'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.worker.js'))
    .map((file) => `plugins/${posix(file)}`);
  const all = [...new Set([...fixed, ...plugins, ...tools])].sort();
  for (const path of all) if (!existsSync(join(dist, path))) throw new Error(`bundle-runtime: no entry file dist/${path}`);
  return all;
}

/**
 * npm packages every run loads that are CommonJS without dependencies or file lookups of their own:
 * bundled, they cost one chunk instead of ~40 files to resolve, compile and scan for exports.
 * - The ones tool modules use too (picomatch, ignore) go into the chunks.
 * - The main thread's own (VENDORED: the CLI's parser, the hooks, the caches, the pool) come from
 *   dist/vendor/runtime-deps.cjs (config/bundle-sdks.mjs, built before): one CommonJS file, which Node 20 loads
 *   with V8's code cache (config/compile-cache.ts) and no tool module ever loads.
 * Every other package stays external and resolves from the installed node_modules.
 */
const CHUNKED = new Set(['picomatch', 'ignore']);
const RUNTIME_DEPS = '../vendor/runtime-deps.cjs';
const requireHere = createRequire(import.meta.url);
// The file's own list: its exports are the packages, as getters (listing them runs none).
const VENDORED = new Set(Object.keys(requireHere(join(dist, 'vendor', 'runtime-deps.cjs'))));
/** Own properties of a function or module object that are no exports. */
const NOT_EXPORTS = new Set(['length', 'name', 'prototype', 'default', 'caller', 'arguments', '__esModule']);
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/** Keeps bare imports external except the start-path packages above. */
const startPathPackages = {
  name: 'start-path-packages',
  setup(bundle) {
    bundle.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      if (VENDORED.has(path)) return { path, namespace: 'vendored' };
      if (path.startsWith('node:') || !CHUNKED.has(packageName(path))) return { external: true };
      return undefined;
    });
    // Each vendored package is its export of the CommonJS file, required at run time beside the
    // chunks, as an ES module with the package's names: a dynamic import() of it (the pool's piscina)
    // gets them too, which esbuild's split chunks do not give a CommonJS module.
    bundle.onLoad({ filter: /.*/, namespace: 'vendored' }, ({ path }) => {
      const names = Object.getOwnPropertyNames(requireHere(path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && !NOT_EXPORTS.has(name));
      const contents = [`const m = require(${JSON.stringify(RUNTIME_DEPS)})[${JSON.stringify(path)}];`, 'export default m;', ...names.map((name) => `export const ${name} = m.${name};`)].join('\n');
      return { contents, loader: 'js' };
    });
    bundle.onResolve({ filter: /runtime-deps\.cjs$/, namespace: 'vendored' }, ({ path }) => ({ path, external: true }));
  },
};

const PLACEHOLDER = '__assistant_original_import_meta_url__';

/** Rewrites `import.meta.url` (expressions only, never strings or comments) to the file's tsc-tree URL. */
const originalUrls = {
  name: 'original-import-meta-url',
  setup(bundle) {
    bundle.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (!source.includes('import.meta.url')) return undefined;
      if (source.includes(PLACEHOLDER)) throw new Error(`bundle-runtime: ${path} already contains ${PLACEHOLDER}`);
      // An unbundled esbuild pass finds the expressions (define works on the syntax tree) and keeps
      // the chain to tsc's source map.
      const pass = await build({
        entryPoints: [path],
        absWorkingDir: dirname(path), // the inline map's sources stay relative to the file, as tsc wrote them
        write: false,
        bundle: false,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        sourcemap: 'inline',
        define: { 'import.meta.url': PLACEHOLDER },
        logLevel: 'silent',
      });
      const original = `new URL(${JSON.stringify(posix(relative(out, path)))}, import.meta.url).href`;
      return { contents: pass.outputFiles[0].text.replaceAll(PLACEHOLDER, original), loader: 'js' };
    });
  },
};

const entries = await entryPaths();
rmSync(out, { recursive: true, force: true });
const { metafile } = await build({
  entryPoints: entries.map((path) => ({ in: join(dist, path), out: path.replace(/\.js$/, '').replaceAll('/', '~') })),
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunk-[hash]',
  // Minified: V8 scans every byte of a module it compiles, and a one-shot run compiles ~1 MB of
  // it (measured: ~10% less start-up CPU, A/B on bench/task.bench.mjs's one-shot); the linked source
  // maps give stack traces their original places back (--enable-source-maps).
  minify: true,
  // Error classes name themselves after their constructor (`new.target.name`): renaming would show.
  keepNames: true,
  sourcemap: 'linked',
  define: { ASSISTANT_BUNDLE_ENTRIES: JSON.stringify(entries) },
  plugins: [startPathPackages, originalUrls],
  // The bundled CommonJS packages require Node built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __assistantCreateRequire } from 'node:module';\nconst require = __assistantCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  metafile: true,
});
// What each bundle file holds and loads, for the tests that check the bundle's shape (the minified
// text no longer shows it): input files relative to the package, imports as esbuild resolved them.
const shape = {};
for (const [file, output] of Object.entries(metafile.outputs)) {
  if (!file.endsWith('.js')) continue;
  shape[posix(relative(out, join(root, file)))] = {
    inputs: Object.keys(output.inputs).map((input) => posix(relative(root, join(root, input)))),
    imports: output.imports.map(({ path, kind, external }) => ({ path: external ? path : posix(relative(out, join(root, path))), kind, ...(external ? { external } : {}) })),
  };
}
writeFileSync(join(out, 'shape.json'), JSON.stringify(shape));
// Node finds each module's format in the nearest package.json: one beside the chunks ends that walk
// at the first step (~10 ms of URL work and stats on a one-shot run's ~55 modules).
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
const chunks = readdirSync(out).filter((file) => file.endsWith('.js')).length;
console.log(`bundled the runtime: ${entries.length} entries, ${chunks - entries.length} shared chunks in dist/bundle`);
