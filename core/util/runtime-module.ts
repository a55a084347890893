// Set only in the bundled build (config/bundle-runtime.mjs, an esbuild `define`): the dist-relative
// paths of the files that have an entry in dist/bundle/. The tsc tree (and vitest) never defines it.
declare const ASSISTANT_BUNDLE_ENTRIES: readonly string[] | undefined;
// Also only there: the running bundle's own entries, each a getter that runs its module on first use.
declare const ASSISTANT_BUNDLE_MODULES: (() => Record<string, Record<string, unknown>>) | undefined;

const entries = typeof ASSISTANT_BUNDLE_ENTRIES === 'undefined' ? undefined : new Set(ASSISTANT_BUNDLE_ENTRIES);
const DIST = new URL('../../', import.meta.url).href;

/**
 * The URL to import for a module of this package named by its place in the compiled tree: in the
 * bundled build, its bundle entry (`plugins/tools-fs/index.js` → `bundle/plugins~tools-fs~index.js`),
 * so a thread loads one copy of the kernel's classes and state whatever path reached them; anything
 * else (the tsc tree, a file without an entry, a third party's file) is returned unchanged.
 */
export function runtimeUrl(url: string): string {
  const path = entryPath(url);
  return path === undefined ? url : `${DIST}bundle/${path.replaceAll('/', '~')}`;
}

/** The pool threads' entry: in the bundled build its CommonJS worker.cjs (a thread then starts without the ES module loader), else `url`, the tsc tree's worker. */
export const poolEntryUrl = (url: string): string => (entries ? `${DIST}bundle/worker.cjs` : url);

/** `import(runtimeUrl(url))`, except that an entry the running bundle holds comes from it directly (no entry file to load per plugin). */
export async function importRuntime(url: string): Promise<Record<string, unknown>> {
  const path = entryPath(url);
  const own = path !== undefined && typeof ASSISTANT_BUNDLE_MODULES !== 'undefined' ? ASSISTANT_BUNDLE_MODULES()[path] : undefined;
  return own ?? ((await import(runtimeUrl(url))) as Record<string, unknown>);
}

/** The dist-relative path of a URL that has a bundle entry. */
const entryPath = (url: string) => (entries && url.startsWith(DIST) && entries.has(url.slice(DIST.length)) ? url.slice(DIST.length) : undefined);
