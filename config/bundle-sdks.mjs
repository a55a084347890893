// Build step: bundles each provider SDK into one CommonJS file under dist/vendor/. The SDKs ship as
// hundreds of small modules (@anthropic-ai/sdk: ~250); Node's ESM loader resolves, reads and links
// each one, which cost about as much CPU as the rest of a one-shot run's start-up. One file loads in
// half the time. The providers require the bundle when it exists, else import the package as installed.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'vendor');
// The compile hook's wrapper, written into each file it compiles (config/compile-cache.ts).
const { PREWRAP } = await import(pathToFileURL(join(root, 'dist', 'config/compile-cache.js')).href);
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// Inside the bundles, the bare globals Headers, Response, FormData and Request are bound to the
// classes of core/kits/provider/http (tsc's output, built before this step): Node's own load its
// bundled undici on first touch (~50 ms of CPU, ~12 MiB per run), and the SDKs touch them on every
// request, if only for `instanceof`.
const webGlobals = join(root, 'dist', 'core', 'kits', 'provider', 'http', 'web-globals.js');

// Anthropic: the provider's client with only the Messages resource (messages-client.ts, tsc's
// output), a quarter of the whole SDK's code. OpenAI's client class builds every resource in its
// constructor, so it is bundled whole.
const SDKS = [
  ['anthropic-sdk.cjs', `export * from './dist/plugins/provider-anthropic/messages-client.js';\n`, { keepNames: false }],
  ['openai.cjs', `export * from 'openai';\nexport { default } from 'openai';\n`, { keepNames: true }],
];
// `globalThis.ReadableStream` (each request body's `instanceof` check) is the bare name too, and so web-globals' lazy class.
for (const [file, contents, names] of SDKS)
  await bundleVendor(file, { stdin: { contents, resolveDir: root }, inject: [webGlobals], define: { 'globalThis.ReadableStream': 'ReadableStream' }, ...names });

/**
 * An esbuild plugin that replaces one line of an installed package's file. A package whose source no
 * longer has the line, or fails `stillAsExpected`, fails the build rather than a run.
 */
function replaceLine(name, file, { line, by, stillAsExpected = () => true }) {
  return {
    name,
    setup(bundle) {
      bundle.onLoad({ filter: file }, ({ path }) => {
        const source = readFileSync(path, 'utf8');
        if (!source.includes(line) || !stillAsExpected(source)) throw new Error(`bundle-sdks: ${path} is no longer as ${name} expects; update it`);
        return { contents: source.replace(line, by), loader: 'js' };
      });
    },
  };
}

/**
 * piscina starts its threads on its own worker file, found beside its main module by `__dirname`,
 * which in a bundle is the bundle's folder: the installed package's folder is asked of the resolver instead.
 */
const piscinaWorkerFile = replaceLine('piscina-worker-file', /[\\/]node_modules[\\/]piscina[\\/]dist[\\/]index\.js$/, {
  line: "(0, node_path_1.resolve)(__dirname, 'worker.js')",
  by: "(0, node_path_1.resolve)((0, node_path_1.dirname)(require.resolve('piscina')), 'worker.js')",
  stillAsExpected: (source) => source.split('__dirname').length === 2,
});

/**
 * commander requires node:child_process at load for one thing, running an executable subcommand
 * (which the CLI has none of): it is required when that spawn happens instead (~2 ms of every start).
 */
const commanderLazyChildProcess = replaceLine('commander-lazy-child-process', /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/, {
  line: "const childProcess = require('node:child_process');",
  by: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  stillAsExpected: (source) => source.split('childProcess.').every((part, i) => i === 0 || part.startsWith('spawn(')),
});

/**
 * lru-cache picks its clock when it loads, and the global `performance` it looks at loads
 * node:perf_hooks (~0.9 ms); the caches made at start-up never ask the time (no TTL is read before a
 * tool runs). The clock is looked up on first use instead.
 */
const lruCacheLazyClock = replaceLine('lru-cache-lazy-clock', /[\\/]node_modules[\\/]lru-cache[\\/]dist[\\/]commonjs[\\/]node[\\/]index\.min\.js$/, {
  line: 'R.defaultPerf=typeof performance=="object"&&performance&&typeof performance.now=="function"?performance:Date',
  by: 'R.defaultPerf={now:()=>(typeof performance=="object"&&performance&&typeof performance.now=="function"?performance:Date).now()}',
});

/**
 * tapable compiles each hook's generated code with `new Function` on the hook's first call, ~20 of
 * them in every one-shot answer, with no code cache. Its code factory takes the function from
 * dist/vendor/hook-calls.cjs (config/record-hook-code.mjs: the code of the CLI's everyday runs,
 * compiled with the package) when one there has exactly the source `new Function` would make.
 */
const tapablePrebuiltHookCode = {
  name: 'tapable-prebuilt-hook-code',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]node_modules[\\/]tapable[\\/]lib[\\/]HookCodeFactory\.js$/ }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (source.split('new Function(').length !== 4) throw new Error(`bundle-sdks: ${path} is no longer as tapable-prebuilt-hook-code expects; update it`);
      const prebuilt = `
let prebuiltHookCode;
/** \`new Function(args, code)\`, or the function of dist/vendor/hook-calls.cjs with exactly its source. */
function hookFunction(args, code) {
  if (prebuiltHookCode === undefined)
    try {
      prebuiltHookCode = new Map(require(require('node:path').join(__dirname, 'hook-calls.cjs')).map((fn) => [Function.prototype.toString.call(fn), fn]));
    } catch {
      prebuiltHookCode = new Map();
    }
  return prebuiltHookCode.get(\`function anonymous(\${args}\\n) {\\n\${code}\\n}\`) ?? new Function(args, code);
}
`;
      return { contents: source.replaceAll('new Function(', 'hookFunction(') + prebuilt, loader: 'js' };
    });
  },
};

// The main thread's CommonJS packages, one getter each so that a package runs only when first used;
// bundle-runtime.mjs takes the lists from these files (`*-deps.cjs`). Those of every run in one
// file; the pool's piscina (the first tool call) and cosmiconfig (a config that is not JSON) in files
// of their own: a run reads, and deserializes the code cache of, only the files it loads (~120 of
// ~210 KB that a one-shot answer never runs). cosmiconfig's own dependencies come with it (its
// parsers are still required on first use); the TypeScript compiler it requires for a `.ts` config
// stays the installed package's, never bundled. The path matchers (picomatch, ignore: permission
// rules, secret files, ignore rules) run only once a tool is called: in runtime.cjs, a task's code
// cache of them (~50 KB of source) was deserialized by every later one-shot answer.
const VENDORED_GROUPS = {
  'runtime-deps.cjs': ['tapable', 'commander', 'resolve.exports', 'lru-cache'],
  'pool-deps.cjs': ['piscina'],
  'config-deps.cjs': ['cosmiconfig'],
  'match-deps.cjs': ['picomatch', 'ignore'],
};
for (const [file, names] of Object.entries(VENDORED_GROUPS))
  await bundleVendor(file, {
    stdin: { contents: names.map((name) => `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => require(${JSON.stringify(name)}) });`).join('\n'), resolveDir: root, loader: 'js' },
    plugins: [piscinaWorkerFile, commanderLazyChildProcess, lruCacheLazyClock, tapablePrebuiltHookCode],
    external: ['typescript'],
    // Every run loads runtime-deps.cjs: no kept names there (~70 fewer defineProperty calls a start).
    // commander's errors then name themselves after a minified class; the CLI tells them apart by
    // class and code, never by name.
    keepNames: file !== 'runtime-deps.cjs',
  });

/** One minified CommonJS bundle in dist/vendor. */
async function bundleVendor(file, options) {
  await build({
    ...options,
    bundle: true,
    platform: 'node',
    // CommonJS: the one kind of file Node 20 lets a program compile with V8's code cache
    // (config/compile-cache.ts); the providers require() it.
    format: 'cjs',
    target: 'node20',
    outfile: join(out, file),
    // The SDKs' @opentelemetry/api is bundled too (its 58 files cost a one-shot run ~20 ms to resolve): the
    // API keeps its state in one process-wide global keyed by major version, so a bundled copy and
    // the installed one (telemetry-otlp) share the same registered providers.
    legalComments: 'inline',
    // Minified as the runtime bundle is (bundle-runtime.mjs), with the names kept unless a bundle says
    // otherwise: the provider kit tells an SDK's errors apart by their class name. The Anthropic
    // SDK names its errors itself (`_errorName`), so its bundle keeps none: a kept name costs a
    // defineProperty per function as the bundle loads (~0.4 ms of its load).
    minify: true,
    keepNames: options.keepNames ?? true,
    banner: { js: PREWRAP.head },
    footer: { js: PREWRAP.tail },
    logLevel: 'warning',
  });
}
console.log(`bundled ${SDKS.length} provider SDKs and the runtime's CommonJS packages into dist/vendor`);
