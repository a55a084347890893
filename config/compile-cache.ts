import { isAscii } from 'node:buffer';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { userDirs } from '../core/util/paths.js';

/** The package's built files: only its CommonJS ones (the runtime's and dist/vendor's bundles, the precompiled validators) get Node 20's cache. */
const OWN_DIST = fileURLToPath(new URL('../', import.meta.url));
/** Set once this thread's cache is on. */
let enabled = false;
/**
 * A cache to write: the file this thread compiled with no usable cache, the name its caches start
 * with (`runtime.cjs-`), and V8's cache version when it was compiled (V8 flags set since, as
 * config/wasm-baseline.ts does, make a cache the next start would refuse: it is not written).
 */
interface PendingCache {
  file: string;
  family: string;
  script: vm.Script;
  version: number;
}
/** Those of this thread, written at exit (or when saveCompileCache is called). */
const pending: PendingCache[] = [];
/**
 * Files compiled from a cache, with how many built-in modules the run that wrote it had loaded (the
 * file's first 4 bytes). A cache holds the functions its writer ran: one written by a one-shot
 * answer lacks all of a task's tools (~35 ms of CPU compiling them in every task run after). A run
 * that has loaded more built-ins than the writer did has done more, so it writes the cache again:
 * the functions it took from the cache plus its own. Cheap to tell, and settles after a few runs.
 */
const cached: (PendingCache & { writerModules: number })[] = [];
/**
 * How the build wraps each of those files: as Node's loader wraps a CommonJS file, the wrapper
 * called at its end. A plain `require` runs it as ever; the hook below compiles the function
 * expression alone, a slice of the file's text, where Node's wrap concatenates ~0.5 MB of source
 * that V8 then copies whole before compiling (~1 ms of a one-shot over the four files it loads).
 */
export const PREWRAP = { head: '(function (exports, require, module, __filename, __dirname) {', tail: '\n}).call(this, exports, require, module, __filename, __dirname);' };
/** After the call: at most the source map's comment. */
const AFTER_TAIL = /^\s*(\/\/# sourceMappingURL=\S+\s*)?$/;

/** The wrapper function's source: the file's own when the build pre-wrapped it, else Node's wrap of it. */
function wrapperSource(content: string, wrap: (content: string) => string): string {
  const call = content.lastIndexOf(PREWRAP.tail);
  const prewrapped = call > 0 && content.startsWith(PREWRAP.head) && AFTER_TAIL.test(content.slice(call + PREWRAP.tail.length));
  return prewrapped ? content.slice(0, call + '\n})'.length) : wrap(content);
}

/**
 * Bytes before V8's data in a cache file: the writer's count of loaded built-in modules (uint32 LE),
 * then zeros to 8, so that V8's data starts pointer-aligned: V8 copies misaligned data whole before
 * reading it (runtime.cjs's ~0.8 MB: ~0.2 ms and ~190 fresh pages per start).
 */
const HEADER = 8;
/** The cache files' suffix: a new layout of the file, a new name. */
const CACHE_FORMAT = '.v4.bin';
/** Caches kept per bundle file: the one just written and the newest others (another installed version may still use one). */
const KEPT_PER_FILE = 3;

/**
 * Keeps compiled code between runs, in the user's cache (not Node's default under the shared temp
 * folder, which another user of the machine could write first).
 * - Node 22.1+: `module.enableCompileCache` for every module loaded from now on (about 15% of a
 *   one-shot's CPU, measured with Node 22.23).
 * - Node 20: V8's code cache for the package's own CommonJS bundles (cacheOwnCommonJs: the
 *   runtime's, the SDKs', the precompiled validators), the one kind of file Node 20 lets a program
 *   compile itself: loading the SDK bundle, for one, drops from ~11.5 to ~4 ms of CPU.
 * `onlyIfPresent`: only when the folder exists (a pool thread uses what its CLI made; the package
 * imported by another program writes nothing of its own accord).
 * The folder is one of the kernel's control folders (core/kernel/control-files.ts), as the user's
 * config folder is: read-only inside the sandbox, and a tool's write to it needs a person.
 * NODE_DISABLE_COMPILE_CACHE=1 turns both off.
 */
export function enableCompileCache(options: { onlyIfPresent?: boolean } = {}): void {
  // Node's own switch turns both off (Node 22 reads it itself). Once per thread.
  if (process.env.NODE_DISABLE_COMPILE_CACHE || enabled) return;
  const dir = join(userDirs().cache, 'compile-cache');
  if (options.onlyIfPresent && !existsSync(dir)) return;
  enabled = true;
  const node = nodeModule as { enableCompileCache?: (dir: string) => unknown };
  if (node.enableCompileCache) node.enableCompileCache(dir);
  else cacheOwnCommonJs(join(dir, 'v8-cjs'), !options.onlyIfPresent);
}

type Compile = (this: nodeModule.Module, content: string, filename: string, ...rest: unknown[]) => unknown;

/**
 * Compiles the package's `.cjs` files through vm.Script with V8's code cache: the cache of a file is
 * named by the file's identity and times, its length and Node's version (V8 itself checks little
 * more than the length), and written at exit, after the run compiled what it used (a pool thread's:
 * when its entry calls saveCompileCache), when there was none, V8 refused it, or its writer had done
 * less than this run (`cached`). A cache that cannot be read or written costs nothing but the cache.
 */
function cacheOwnCommonJs(dir: string, atExit: boolean): void {
  // The option that keeps import() working in such code compiled without a cache (compiled from one,
  // Node 20's import() fails: the runtime bundles import through dist/bundle/runtime.js); without
  // it (older Node 20), no cache.
  const loader = (vm.constants as unknown as { USE_MAIN_CONTEXT_DEFAULT_LOADER?: symbol } | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const { prototype, wrap } = nodeModule.Module as unknown as { prototype: { _compile: Compile }; wrap(content: string): string };
  if (!loader || typeof prototype._compile !== 'function' || typeof wrap !== 'function') return;
  const original = prototype._compile;
  readOwnAsOneByte();
  prototype._compile = function (content, filename, ...rest) {
    if (!ownBundle(filename)) return original.call(this, content, filename, ...rest);
    // Named by the file, Node's version, the content's length and the file's identity and times: any
    // rewrite of the file changes its change time, which no one can set back (a CRC-32 of the ~1.3 MB
    // read cost ~1 ms per start, a SHA-256 ~8 ms; the name guards against a stale cache, not an
    // attacker: see the folder). Unreadable times: no cache.
    const stamp = fileStamp(filename);
    if (!stamp) return original.call(this, content, filename, ...rest);
    const file = join(dir, `${basename(filename)}-${process.version}-${stamp}-${content.length}${CACHE_FORMAT}`);
    let stored: Buffer | undefined;
    try {
      stored = readFileSync(file);
    } catch {
      // None yet.
    }
    const cachedData = stored && stored.length > HEADER ? stored.subarray(HEADER) : undefined;
    const script = new vm.Script(wrapperSource(content, wrap), { filename, cachedData, importModuleDynamically: loader as never });
    // The main thread checks its caches at exit; a pool thread when its entry calls saveCompileCache.
    if (atExit && !pending.length && !cached.length) process.once('exit', () => writeCaches());
    if (!cachedData || script.cachedDataRejected) {
      // Only a start that found no usable cache (or, at its end, one that outgrew it) pays for loading node:v8.
      pending.push({ file, family: `${basename(filename)}-`, script, version: cacheVersion() });
      // The folder is made now, not at exit: a home folder being removed under an exiting run (a
      // test's cleanup) is not made again.
      makeFolder(dir);
    } else cached.push({ file, family: `${basename(filename)}-`, script, version: 0, writerModules: stored!.readUInt32LE(0) });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, nodeModule.createRequire(filename), this, filename, dirname(filename));
  };
}

/** One of the package's own CommonJS files, read and compiled here; with source maps on (--debug), Node's own reading and compile, which map stack traces to the sources. */
const ownBundle = (filename: string) => filename.startsWith(OWN_DIST) && filename.endsWith('.cjs') && !process.sourceMapsEnabled;

/**
 * Reads the package's own CommonJS files as one-byte text when their bytes are all ASCII, as the
 * build writes them, instead of decoding UTF-8 (runtime.cjs: ~1.4 -> ~1 ms); any other byte, UTF-8
 * as Node reads them. What Node's `.js` loader does for a `.cjs` file besides reading, it is given.
 */
function readOwnAsOneByte(): void {
  const extensions = (nodeModule.Module as unknown as { _extensions?: Record<string, (module: { _compile: (content: string, filename: string) => unknown }, filename: string) => unknown> })._extensions;
  const readJs = extensions?.['.js'];
  if (!extensions || typeof readJs !== 'function' || typeof isAscii !== 'function') return;
  extensions['.js'] = function (module, filename) {
    if (!ownBundle(filename)) return readJs.call(this, module, filename);
    const bytes = readFileSync(filename);
    return module._compile(isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'), filename);
  };
}

/** The file's device, inode, size and modification and change times (to the microsecond), or undefined when it cannot be read. */
function fileStamp(path: string): string | undefined {
  try {
    const s = statSync(path);
    return [s.dev, s.ino, s.size, Math.round(s.mtimeMs * 1000), Math.round(s.ctimeMs * 1000)].map((n) => n.toString(36)).join('.');
  } catch {
    return undefined;
  }
}

/**
 * Writes this thread's caches now, with the functions compiled so far (again on a later call, which
 * then holds more): for a pool thread, which is terminated and never sees `exit`. Nothing when every
 * file it loaded had a usable cache, as in every run after the first.
 */
export function saveCompileCache(): void {
  writeCaches();
}

/** Set once V8's flags change (wasm-baseline.ts): every cache made from then on would be refused by the next start. */
let frozen = false;

/** Writes this thread's caches one last time, right before V8's flags change (config/wasm-baseline.ts's callback). */
export function saveCompileCacheBeforeFlagChange(): void {
  writeCaches();
  frozen = true;
}

function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // Not writable: the caches are not written.
  }
}

/**
 * Writes each cache whole or not at all (another run may be reading it), into the folder made
 * earlier: the files that had none, and those whose writer had done less than this run (`cached`),
 * which from then on are written like the first.
 */
function writeCaches(): void {
  if (frozen) return;
  const modules = loadedBuiltins();
  for (const entry of cached.filter((kept) => modules > kept.writerModules)) {
    // V8's flags are still the start's (frozen says when they change): the version now is the one it was compiled under.
    pending.push({ ...entry, version: cacheVersion() });
    cached.splice(cached.indexOf(entry), 1);
  }
  if (!pending.length) return;
  const { threadId } = process.getBuiltinModule('node:worker_threads');
  const version = cacheVersion();
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(modules);
  for (const { file, family, script } of pending.filter((cache) => cache.version === version))
    try {
      const partial = `${file}.${process.pid}-${threadId}.tmp`;
      writeFileSync(partial, Buffer.concat([header, script.createCachedData()]), { mode: 0o600 });
      renameSync(partial, file);
      pruneFamily(file, family);
    } catch {
      // A read-only or full disk: the next run compiles again.
    }
}

/** How many built-in modules and bindings this thread has loaded (Node's own list; 0 where a Node has none: no cache is then written again). */
const loadedBuiltins = () => (process as { moduleLoadList?: readonly string[] }).moduleLoadList?.length ?? 0;

/** V8's code cache version: its own version, flags and CPU features. */
const cacheVersion = () => process.getBuiltinModule('node:v8').cachedDataVersionTag();

/**
 * Removes the caches of the same bundle file beyond the newest few: each build or Node upgrade
 * names its caches anew, and the old ones would otherwise pile up (~2 MB a build).
 */
function pruneFamily(written: string, family: string): void {
  const dir = dirname(written);
  const caches = readdirSync(dir)
    .filter((name) => name.startsWith(family) && name.endsWith('.bin'))
    .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { path } of caches.slice(KEPT_PER_FILE))
    if (path !== written)
      try {
        unlinkSync(path);
      } catch {
        // Another run removed it first.
      }
}
