// Build step: bundles the compiled runtime (tsc's dist/ tree, not the TypeScript sources) into
// dist/bundle/. A one-shot run loaded ~350 of our own ES modules, and Node's loader spent ~110 ms
// resolving, reading and linking them; split ES chunks still cost ~1,100 resolutions and a compile
// Node 20 cannot cache. So the runtime is CommonJS, which Node 20 lets the program compile itself with
// V8's code cache (config/compile-cache.ts):
// - runtime.cjs holds every entry: the files something loads by name at run time (the CLI, the
//   package's exports, every built-in plugin, every tool module, the pool's worker), each behind a
//   getter, so a module runs only when first reached, as an ES module would.
// - tools.cjs holds what a pool thread runs (the worker, the tool modules, the kits), so a thread
//   compiles and caches none of the main thread's code.
// - runtime-<plugin>.cjs, the parts, hold what a plugin only imports lazily (config/bundle-parts.mjs):
//   a run loads and deserializes such code only when it imports it.
// - Each entry keeps a file of its own name (`/` as `~`: plugins/tools-fs/index.js →
//   bundle/plugins~tools-fs~index.js), an ES module that re-exports it from runtime.js, which picks
//   the bundle of the thread: one copy of the kernel per thread whichever entry reached it.
// - `import()` of anything not bundled (a user's plugin, a package loaded on first use) goes
//   through runtime.js, a real ES module: code compiled with a cache cannot import by itself.
// - `import.meta.url` in every input file becomes the file's ORIGINAL location, written relative to
//   the bundle folder: assets, createRequire, built-in checks and tool module URLs keep the meaning
//   they have in the tsc tree.
// - runtimeUrl() (core/util/runtime-module.ts) maps a dist URL with an entry to that entry when the
//   ASSISTANT_BUNDLE_ENTRIES constant is defined, i.e. only in this bundle.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { planParts } from './bundle-parts.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
// The compile hook's wrapper, written into each file it compiles (config/compile-cache.ts).
const { PREWRAP } = await import(pathToFileURL(join(dist, 'config/compile-cache.js')).href);
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
 * bundled, they cost nothing to resolve and share the bundle's code cache.
 * - The ones tool modules use too (picomatch, ignore) go into tools.cjs, each behind a stand-in
 *   that runs it on first use (a one-shot answer runs neither: ~0.7 ms, and a task's cache of them).
 *   Imported as the default export only, as the sources do. The main thread's copy is vendored
 *   (dist/vendor/match-deps.cjs), with a code cache of its own.
 * - The main thread's own (VENDORED: the CLI's parser, the hooks, the caches, the pool, the config
 *   search) come from dist/vendor/*-deps.cjs (config/bundle-sdks.mjs, built before), which no tool
 *   module loads.
 * Every other package stays external and resolves from the installed node_modules.
 */
const BUNDLED = new Set(['picomatch', 'ignore']);
const requireHere = createRequire(import.meta.url);
// Each file's own list: its exports are the packages, as getters (listing them runs none). Package → the file, as the bundle requires it.
const VENDORED = new Map(
  readdirSync(join(dist, 'vendor'))
    .filter((file) => file.endsWith('-deps.cjs'))
    .flatMap((file) => Object.keys(requireHere(join(dist, 'vendor', file))).map((name) => [name, `../vendor/${file}`])),
);
/** Own properties of a function or module object that are no exports. */
const NOT_EXPORTS = new Set(['length', 'name', 'prototype', 'default', 'caller', 'arguments', '__esModule']);
const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const isBundled = (specifier) => specifier.startsWith('.') || VENDORED.has(specifier) || BUNDLED.has(packageName(specifier));

/**
 * Whether a package resolves to an ES module. A CommonJS bundle loads an external package with
 * `require`, which gives such a module's namespace, and esbuild's interop would take that whole
 * namespace for `import x from` (ansi-regex's default export): those imported statically go
 * through a stand-in that re-exports the namespace's names (ansi-regex, the ACP SDK).
 */
function isEsModule(specifier) {
  let file;
  try {
    file = createRequire(join(dist, 'index.js')).resolve(specifier);
  } catch {
    return false; // only importable (an `import` condition alone): it stays external, and fails the run that reaches it.
  }
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type === 'module';
  return false;
}

/** Keeps bare imports external except the packages above. */
const startPathPackages = {
  name: 'start-path-packages',
  setup(bundle) {
    const commonJs = bundle.initialOptions.format === 'cjs';
    // A pool thread loads no dist/vendor file: its bundle holds the packages its tools use.
    const poolThread = bundle.initialOptions.outfile?.endsWith('tools.cjs');
    bundle.onResolve({ filter: /^[^./]/ }, ({ path, kind, namespace }) => {
      if (VENDORED.has(path) && !BUNDLED.has(path)) return { path, namespace: 'vendored' };
      if (commonJs && LAZY_BUILTINS.has(path) && namespace !== 'lazy-builtin') return { path, namespace: 'lazy-builtin' };
      if (commonJs && BUNDLED.has(path) && namespace !== 'lazy-package') return { path, namespace: 'lazy-package' };
      if (namespace === 'es-module' || path.startsWith('node:') || !BUNDLED.has(packageName(path))) {
        if (commonJs && namespace !== 'es-module' && kind === 'import-statement' && isEsModule(path)) return { path, namespace: 'es-module' };
        return { external: true };
      }
      return undefined;
    });
    // An ES module package as the CommonJS bundle requires it, with its names (read now, by importing it).
    bundle.onLoad({ filter: /.*/, namespace: 'es-module' }, async ({ path }) => {
      const names = Object.keys(await import(path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      const contents = [`const m = require(${JSON.stringify(path)});`, 'export default m.default;', ...names.map((name) => `export const ${name} = m.${name};`)].join('\n');
      return { contents, loader: 'js' };
    });
    // Each vendored package is its export of the CommonJS file, required at run time beside the
    // bundle, as a module whose names are getters: the package loads when a name is first used, not
    // when a module importing it starts (cosmiconfig, ~5 ms with its own imports, only for a config
    // that is not JSON; lru-cache, whose start loads perf_hooks, only when a cache is made). Imported
    // by name only, as the sources do: a default import would be these names, not the package's default.
    bundle.onLoad({ filter: /.*/, namespace: 'vendored' }, ({ path }) => {
      const names = Object.getOwnPropertyNames(requireHere(path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && !NOT_EXPORTS.has(name));
      const contents = [
        `const load = () => require(${JSON.stringify(VENDORED.get(path))})[${JSON.stringify(path)}];`,
        `Object.defineProperty(exports, '__esModule', { value: true });`,
        `Object.defineProperty(exports, 'default', { enumerable: true, get: load });`,
        ...names.map((name) => `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => load()[${JSON.stringify(name)}] });`),
      ].join('\n');
      return { contents, loader: 'js' };
    });
    bundle.onResolve({ filter: /-deps\.cjs$/, namespace: 'vendored' }, ({ path }) => ({ path, external: true }));
    bundle.onResolve({ filter: /-deps\.cjs$/, namespace: 'lazy-package' }, ({ path }) => ({ path, external: true }));
    // A bundled package (picomatch, ignore: a function with properties, imported as the default) as a
    // stand-in that is both and runs the package on first use: a module importing it starts without it.
    // The package itself: in tools.cjs, bundled; elsewhere, its getter in dist/vendor.
    bundle.onLoad({ filter: /.*/, namespace: 'lazy-package' }, ({ path }) => ({
      contents: [
        'let m;',
        `const load = () => (m ??= ${poolThread || !VENDORED.has(path) ? `require(${JSON.stringify(path)})` : `require(${JSON.stringify(VENDORED.get(path))})[${JSON.stringify(path)}]`});`,
        'export default new Proxy(() => {}, { apply: (_, self, args) => Reflect.apply(load(), self, args), get: (_, key) => Reflect.get(load(), key), has: (_, key) => Reflect.has(load(), key) });',
      ].join('\n'),
      loader: 'js',
      resolveDir: dist,
    }));
    // A lazy built-in: its names are getters that require the module on first use.
    bundle.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => {
      const names = Object.keys(requireHere(path)).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      const contents = [
        `let m;`,
        `const load = () => (m ??= require(${JSON.stringify(path)}));`,
        `Object.defineProperty(exports, '__esModule', { value: true });`,
        `Object.defineProperty(exports, 'default', { enumerable: true, get: load });`,
        ...names.map((name) => `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => load()[${JSON.stringify(name)}] });`),
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * Built-in modules whose names are bound lazily in the CommonJS bundles: the module loads when a name
 * is first used, not when a module importing it starts. node:fs/promises (~1.3 ms with its readline
 * and watcher modules) is imported by some twenty modules that a run starts, most of which use it
 * only on paths a one-shot answer never takes. node:zlib (~1.2 ms) deflates checkpoints' file
 * contents, which a run without edits never saves. node:crypto (~1.4 ms beyond the streams it
 * shares) hashes what a run may never hash: trusted settings, checkpoints, audit records.
 */
const LAZY_BUILTINS = new Set(['node:fs/promises', 'node:zlib', 'node:crypto']);

const PLACEHOLDER = '__assistant_original_import_meta_url__';
/** Defined by the bundles' banner: the bundle file's URL, and the import() of runtime.js (and the bundle's entries, below). */
const BUNDLE_URL = '__assistantBundleUrl';
const IMPORT = '__assistantImport';
/** Defined by the banner of runtime.cjs and the parts: loads a part and gives one of its modules, as `import()` would. */
const PART = '__assistantPart';

/**
 * Every `import(...)` that esbuild does not bundle (anything but a relative or bundled package
 * literal) calls IMPORT instead, found on the syntax tree so strings and comments are left alone.
 * An import of a part's module (`partFiles`: file → its part's bundle file) loads that part instead.
 */
function routeDynamicImports(source, path, partFiles) {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const edits = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      const literal = specifier && ts.isStringLiteralLike(specifier) ? specifier.text : undefined;
      const target = literal?.startsWith('.') ? join(dirname(path), literal) : undefined;
      const part = target && partFiles.get(target);
      if (part) edits.push({ start: node.getStart(file), end: node.end, text: `${PART}(${JSON.stringify(part)}, ${JSON.stringify(posix(relative(dist, target)))})` });
      else if (!(literal !== undefined && isBundled(literal))) edits.push({ start: node.expression.getStart(file), end: node.expression.getStart(file) + 'import'.length, text: IMPORT });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) source = `${source.slice(0, start)}${text}${source.slice(end)}`;
  return source;
}

/**
 * Each `readFileSync(new URL('./x.txt', import.meta.url), 'utf8')` (a prompt or a tool's
 * description beside its module) as the file's text: a start read ~15 such files, each an open, a
 * stat, a read and a close. Found on the syntax tree; the files stay beside the modules for tsc's tree.
 */
function inlineTextFiles(source, path) {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const edits = [];
  const isImportMetaUrl = (node) => ts.isPropertyAccessExpression(node) && node.name.text === 'url' && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword;
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'readFileSync' && node.arguments.length === 2) {
      const [url, encoding] = node.arguments;
      if (
        ts.isNewExpression(url) && ts.isIdentifier(url.expression) && url.expression.text === 'URL' && url.arguments?.length === 2 &&
        ts.isStringLiteral(url.arguments[0]) && url.arguments[0].text.startsWith('./') && url.arguments[0].text.endsWith('.txt') &&
        isImportMetaUrl(url.arguments[1]) && ts.isStringLiteral(encoding) && encoding.text === 'utf8'
      )
        edits.push({ start: node.getStart(file), end: node.end, text: JSON.stringify(readFileSync(join(dirname(path), url.arguments[0].text), 'utf8')) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) source = `${source.slice(0, start)}${text}${source.slice(end)}`;
  return source;
}

/**
 * Rewrites each input for a CommonJS bundle: its `import.meta.url` (expressions only), its unbundled
 * `import()`s and those of a part's module (`partFiles`, runtime.cjs and the parts only).
 */
const commonJsInputs = (partFiles = new Map()) => ({
  name: 'commonjs-inputs',
  setup(bundle) {
    bundle.onLoad({ filter: /\.js$/ }, async ({ path }) => {
      let source = readFileSync(path, 'utf8');
      if (source.includes('import(')) source = routeDynamicImports(source, path, partFiles);
      if (source.includes('.txt')) source = inlineTextFiles(source, path);
      if (source.includes(PLACEHOLDER)) throw new Error(`bundle-runtime: ${path} already contains ${PLACEHOLDER}`);
      if (source.includes('import.meta.url')) {
        // An unbundled esbuild pass finds the expressions (define works on the syntax tree) and keeps
        // the chain to tsc's source map.
        const pass = await build({
          stdin: { contents: source, sourcefile: basename(path), resolveDir: dirname(path), loader: 'js' },
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
        source = pass.outputFiles[0].text.replaceAll(PLACEHOLDER, `new URL(${JSON.stringify(posix(relative(out, path)))}, ${BUNDLE_URL}).href`);
      }
      return { contents: source, loader: 'js', resolveDir: dirname(path) };
    });
  },
});

const entries = await entryPaths();
const ENTRIES_OF_BUNDLE = '__assistantEntries';
const define = { ASSISTANT_BUNDLE_ENTRIES: JSON.stringify(entries) };
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

/** The graph of `entryPoints` as ES modules (nothing written): each entry's export names, and what each input imports. */
async function esmGraph(entryPoints) {
  const { metafile } = await build({
    entryPoints,
    outdir: out,
    write: false,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    define,
    plugins: [startPathPackages],
    logLevel: 'warning',
    metafile: true,
  });
  return metafile;
}
const graph = await esmGraph(entries.map((path) => ({ in: join(dist, path), out: path.replace(/\.js$/, '').replaceAll('/', '~') })));
const exportsOf = new Map();
for (const output of Object.values(graph.outputs)) if (output.entryPoint) exportsOf.set(posix(relative(dist, join(root, output.entryPoint))), output.exports);
const inputs = {};
const dynamic = {};
const bytes = {};
const fromRoot = (path) => posix(relative(root, join(root, path)));
for (const [input, { imports, bytes: size }] of Object.entries(graph.inputs)) {
  inputs[fromRoot(input)] = imports.filter((i) => i.kind === 'import-statement').map((i) => (i.external ? i.path : fromRoot(i.path)));
  dynamic[fromRoot(input)] = imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => fromRoot(i.path));
  bytes[fromRoot(input)] = size;
}
/**
 * Entries no start loads: the tools' modules (the main thread runs one only for a tool call small
 * enough to run inline), the test kit and the SDK (for other programs). In runtime.cjs they cost every
 * run their share of the file and of its code cache (~100 KB of ~540 KB); in a part, only the runs that use them.
 */
const lateEntry = (path) => (path.endsWith('worker.js') && !isThreadScript(path)) || path === 'config/test-kit.js' || path === 'config/sdk.js';
/** A thread's own script (it reads its `workerData` as it loads: Grep's scan helpers), which only a thread of its own may run. */
const isThreadScript = (path) => /\bworkerData\b[^;]*\bfrom 'node:worker_threads'/.test(readFileSync(join(dist, path), 'utf8'));
// runtime.cjs without the code only lazily imported: each plugin's such code is a part (config/bundle-parts.mjs).
const plan = planParts({
  inputs,
  dynamic,
  bytes,
  roots: entries.filter((path) => !lateEntry(path)).map((path) => `dist/${path}`),
  late: entries.filter(lateEntry).map((path) => `dist/${path}`),
});
const partFile = (name) => `runtime-${name}.cjs`;
/** Each module a part's code may be imported by (its targets): file → the part's bundle file. */
const partFiles = new Map([...plan.parts].flatMap(([name, part]) => [...part.targets].map((target) => [join(root, target), partFile(name)])));
/** Everything an input loads by static imports, itself included. */
function staticGraph(input, seen = new Set()) {
  if (!seen.has(input)) {
    seen.add(input);
    for (const imported of inputs[input] ?? []) staticGraph(imported, seen);
  }
  return seen;
}
/**
 * What a pool thread runs: the worker, the tool modules, and the kits a tool module may import by
 * the package's name (the ones that load neither the kernel nor the main thread's packages).
 */
const mainThreadOnly = (input) => input === 'dist/core/kernel/kernel.js' || input.startsWith('vendored:');
const toolSide = entries.filter(
  (path) => path === 'core/tools/worker.js' || path.endsWith('.worker.js') || (path.startsWith('core/kits/') && ![...staticGraph(`dist/${path}`)].some(mainThreadOnly)),
);

/**
 * One CommonJS bundle: an object with a getter per path of `paths`, requiring it on first use.
 * runtime.cjs also gives `importModule` (a part's unbundled `import()`) and the modules its parts
 * import (`exposed`); a part (`main`: the modules runtime.cjs holds) takes those from runtime.cjs.
 */
async function bundleCommonJs(file, paths, { parts = new Map(), exposed = [], main } = {}) {
  // An entry split off into a part (runtime.cjs only) is that part's: required on first use.
  const getters = [...paths, ...exposed].map((path) => {
    const part = main ? undefined : parts.get(join(dist, path));
    return `  get ${JSON.stringify(path)}() { return ${part ? `${PART}Now(${JSON.stringify(part)}, ${JSON.stringify(path)})` : `require(${JSON.stringify(join(dist, path))})`}; },`;
  });
  const own = main ? '' : `  setImport(fn) { ${IMPORT}Fn = fn; },\n  importModule(specifier) { return ${IMPORT}(specifier); },\n`;
  const importFn = main ? `${IMPORT} = (specifier) => require('./runtime.cjs').importModule(specifier)` : `${IMPORT}Fn, ${IMPORT} = (specifier) => ${IMPORT}Fn(specifier)`;
  const { metafile } = await build({
    stdin: { contents: `module.exports = {\n${own}${getters.join('\n')}\n};\n`, resolveDir: dist, sourcefile: `${file}-entries.js`, loader: 'js' },
    outfile: join(out, file),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Minified: V8 scans every byte of a file it compiles without a cache (measured: ~10% less
    // start-up CPU); the linked source maps give stack traces their original places back (--debug).
    minify: true,
    // Names not kept: keeping them costs a defineProperty per function at start (~1,300 in runtime.cjs,
    // ~2.5 ms of a one-shot) and their bytecode in every code cache. The package's error classes say
    // their names themselves (core/kernel/errors.ts); nothing else reads a function's name.
    keepNames: false,
    sourcemap: 'linked',
    define: { ...define, ASSISTANT_BUNDLE_MODULES: ENTRIES_OF_BUNDLE },
    plugins: [...(main ? [mainModules(main)] : []), startPathPackages, commonJsInputs(parts)],
    banner: {
      js: `${PREWRAP.head}\nvar ${BUNDLE_URL} = require('node:url').pathToFileURL(__filename).href, ${importFn}, ${PART}Now = (file, path) => require('./' + file)[path], ${PART} = (file, path) => Promise.resolve().then(() => ${PART}Now(file, path)), ${ENTRIES_OF_BUNDLE} = () => module.exports;`,
    },
    footer: { js: PREWRAP.tail },
    logLevel: 'warning',
    metafile: true,
  });
  const output = Object.entries(metafile.outputs).find(([name]) => name.endsWith('.cjs'))[1];
  return {
    // Without the generated entry, the vendored packages' stand-ins (namespace `vendored:`) and runtime.cjs's modules in a part.
    inputs: Object.keys(output.inputs).filter((input) => !input.endsWith(`${file}-entries.js`) && !input.includes(':')).map((input) => posix(relative(root, join(root, input)))),
    imports: output.imports.map(({ path, kind, external }) => ({ path: external ? path : posix(relative(out, join(root, path))), kind, ...(external ? { external } : {}) })),
  };
}

/** The export names of `paths` (package-relative), read from an ES module build of them. */
async function exportNames(paths) {
  if (!paths.length) return new Map();
  const metafile = await esmGraph(paths.map((path) => join(root, path)));
  return new Map(Object.values(metafile.outputs).filter((o) => o.entryPoint).map((o) => [fromRoot(o.entryPoint), o.exports]));
}
const exposedExports = await exportNames([...plan.exposed]);
/** Whether a module exports a `let` or `var` binding (`export let x`, or `let x; ... export { x }`). */
function exportsVariable(path) {
  const file = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const variables = new Set();
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement) || statement.declarationList.flags & ts.NodeFlags.Const) continue;
    if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return true;
    for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) variables.add(declaration.name.text);
  }
  return file.statements.some(
    (s) => ts.isExportDeclaration(s) && !s.moduleSpecifier && s.exportClause && ts.isNamedExports(s.exportClause) && s.exportClause.elements.some((e) => variables.has((e.propertyName ?? e.name).text)),
  );
}
// A part copies the exported values of runtime.cjs's modules when it loads: a binding that changes
// later would go stale there. Every module of runtime.cjs is checked: a part may reach one through
// another's re-exports (core/index.js).
for (const path of plan.main)
  if (path.startsWith('dist/') && path.endsWith('.js') && exportsVariable(path))
    throw new Error(`bundle-runtime: ${path} exports a variable binding, which its importers in a part would see go stale; export a function or an object`);

/**
 * In a part, a module runtime.cjs holds is that module from runtime.cjs (its getter): one running
 * copy of the kernel, its classes and state. Named like the module's exports (values when the part
 * first loads: functions, classes and constants).
 */
function mainModules(main) {
  return {
    name: 'main-modules',
    setup(bundle) {
      bundle.onResolve({ filter: /^\./ }, ({ path, resolveDir, namespace }) => {
        if (namespace === 'main-module') return { path, external: true };
        const input = posix(relative(root, join(resolveDir, path)));
        return main.has(input) ? { path: input, namespace: 'main-module' } : undefined;
      });
      bundle.onLoad({ filter: /.*/, namespace: 'main-module' }, ({ path }) => {
        const names = exposedExports.get(path);
        if (!names) throw new Error(`bundle-runtime: a part imports ${path}, which runtime.cjs does not expose`);
        const contents = [
          `const m = require('./runtime.cjs')[${JSON.stringify(posix(relative('dist', path)))}];`,
          ...names.map((name) => (name === 'default' ? 'export default m.default;' : `export const ${name} = m.${name};`)),
        ].join('\n');
        return { contents, loader: 'js', resolveDir: out };
      });
    },
  };
}

const bundles = {
  'runtime.cjs': await bundleCommonJs('runtime.cjs', entries, { parts: partFiles, exposed: [...plan.exposed].map((path) => posix(relative('dist', path))).filter((path) => !entries.includes(path)) }),
  'tools.cjs': await bundleCommonJs('tools.cjs', toolSide),
};
for (const [name, part] of plan.parts)
  bundles[partFile(name)] = await bundleCommonJs(partFile(name), [...part.targets].map((path) => posix(relative('dist', path))), { parts: partFiles, main: plan.main });

// What the CLI and a pool thread turn on before they load their bundle: the code cache, and
// WebAssembly on V8's baseline compiler (the flag set at the first compile, the cache written first).
await build({
  stdin: {
    contents: "export { enableCompileCache, saveCompileCache, saveCompileCacheBeforeFlagChange } from './config/compile-cache.js';\nexport { keepWasmOnBaseline } from './config/wasm-baseline.js';\n",
    resolveDir: dist,
    sourcefile: 'start-entry.js',
    loader: 'js',
  },
  outfile: join(out, 'start.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  plugins: [commonJsInputs()],
  banner: { js: `var ${BUNDLE_URL} = require('node:url').pathToFileURL(__filename).href;` },
  logLevel: 'warning',
});
// The CLI's start (bin/assistant.cjs requires it), CommonJS as the bin is: the code cache goes on,
// then runtime.cjs, whose import()s run here (this file is compiled before the cache is on).
writeFileSync(
  join(out, 'main.cjs'),
  `// Written by config/bundle-runtime.mjs: the CLI's start.
'use strict';
const start = require('./start.cjs');
start.enableCompileCache();
start.keepWasmOnBaseline(start.saveCompileCacheBeforeFlagChange);
const bundle = require('./runtime.cjs');
bundle.setImport((specifier) => import(specifier));
module.exports = bundle;
`,
);
// The pool threads' entry (piscina require()s it): CommonJS, so a thread starts without Node's ES
// module loader (measured: ~15 ms less CPU per thread). It is compiled before the cache is on, so its
// import() works: the one tools.cjs routes its imports through. A pool thread is terminated and never
// sees 'exit', so it saves its code cache after the first call of each tool's function: the cache then
// holds the tools' code, not only tools.cjs's top level (measured: the task's tool rounds ~15 ms
// shorter). Only a run that found no usable cache has anything to save.
writeFileSync(
  join(out, 'worker.cjs'),
  `// Written by config/bundle-runtime.mjs: a pool thread's entry.
'use strict';
const cache = require('./start.cjs');
cache.enableCompileCache({ onlyIfPresent: true });
cache.keepWasmOnBaseline(cache.saveCompileCacheBeforeFlagChange);
const bundle = require('./tools.cjs');
bundle.setImport((specifier) => import(specifier));
const runTask = bundle['core/tools/worker.js'].default;
const ran = new Set();
module.exports = async function runTaskSavingCache(payload) {
  try {
    return await runTask(payload);
  } finally {
    // A warm-up names no function: it only loads the module.
    const call = payload.exportName ? payload.module + '#' + payload.exportName : undefined;
    if (call && !ran.has(call)) {
      ran.add(call);
      cache.saveCompileCache();
    }
  }
};
`,
);

writeFileSync(
  join(out, 'runtime.js'),
  `// Written by config/bundle-runtime.mjs. Loads this thread's bundle: tools.cjs in a pool thread for
// what it holds, runtime.cjs for the rest. Their import()s run here: code compiled with V8's cache
// cannot import by itself.
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
const require = createRequire(import.meta.url);
// A thread other than the main one keeps its code cache too, in the folder the main thread made (a
// host that never enabled the cache gets none); the same copy worker.cjs turned on in a pool thread.
if (!isMainThread) require('./start.cjs').enableCompileCache({ onlyIfPresent: true });
const loaded = new Map();
function load(file) {
  let bundle = loaded.get(file);
  if (!bundle) {
    bundle = require(file);
    bundle.setImport((specifier) => import(specifier));
    loaded.set(file, bundle);
  }
  return bundle;
}
/** The bundle of this thread for an entry: tools.cjs in a pool thread when it holds the entry (\`toolSide\`), else runtime.cjs. */
export const bundleFor = (toolSide) => load(toolSide && !isMainThread ? './tools.cjs' : './runtime.cjs');
`,
);
for (const path of entries) {
  const names = exportsOf.get(path);
  if (!names) throw new Error(`bundle-runtime: no exports recorded for ${path}`);
  const lines = [
    '// Written by config/bundle-runtime.mjs: this entry, from the bundle of the thread.',
    "import { bundleFor } from './runtime.js';",
    `const m = bundleFor(${toolSide.includes(path)})[${JSON.stringify(path)}];`,
    ...names.map((name) => (name === 'default' ? 'export default m.default;' : `export const ${name} = m.${name};`)),
  ];
  writeFileSync(join(out, `${path.replace(/\.js$/, '').replaceAll('/', '~')}.js`), `${lines.join('\n')}\n`);
}

// What the bundle holds, for the tests that check its shape (the minified text no longer shows it):
// each bundle's inputs (relative to the package) and imports, each entry's bundles, the static
// imports of every input as the ES module graph has them, and every package it imports, also by import().
const entryShape = Object.fromEntries(entries.map((path) => [path, toolSide.includes(path) ? ['runtime.cjs', 'tools.cjs'] : ['runtime.cjs']]));
const externals = [...new Set(Object.values(graph.inputs).flatMap(({ imports }) => imports.filter((i) => i.external).map((i) => i.path)))].sort();
writeFileSync(join(out, 'shape.json'), JSON.stringify({ bundles, entries: entryShape, inputs, externals }));
// Node finds each module's format in the nearest package.json: one beside the entries ends that
// walk at the first step.
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
console.log(`bundled the runtime: ${entries.length} entries, runtime.cjs (${bundles['runtime.cjs'].inputs.length} inputs), tools.cjs (${bundles['tools.cjs'].inputs.length} inputs) and ${plan.parts.size} parts (${[...plan.parts.keys()].join(', ')})`);
