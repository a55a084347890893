// Set only in the bundled build (config/bundle-runtime.mjs, an esbuild `define`): the dist-relative
// paths of the files that have an entry in dist/bundle/. The tsc tree (and vitest) never defines it.
declare const ASSISTANT_BUNDLE_ENTRIES: readonly string[] | undefined;

const entries = typeof ASSISTANT_BUNDLE_ENTRIES === 'undefined' ? undefined : new Set(ASSISTANT_BUNDLE_ENTRIES);
const DIST = new URL('../../', import.meta.url).href;

/**
 * The URL to import for a module of this package named by its place in the compiled tree: in the
 * bundled build, its bundle entry (`plugins/tools-fs/index.js` → `bundle/plugins~tools-fs~index.js`),
 * so a thread loads one copy of the kernel's classes and state whatever path reached them; anything
 * else (the tsc tree, a file without an entry, a third party's file) is returned unchanged.
 */
export function runtimeUrl(url: string): string {
  const path = entries && url.startsWith(DIST) ? url.slice(DIST.length) : undefined;
  return path !== undefined && entries!.has(path) ? `${DIST}bundle/${path.replaceAll('/', '~')}` : url;
}
