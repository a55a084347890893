import { PluginError } from '../kernel/errors.js';

/**
 * A plugin's heavy part, imported on first use: `load` runs once, and every caller (concurrent
 * first uses included) shares that one import. A failed import stays failed (the caller fails
 * closed rather than run half a plugin) and surfaces as ASSISTANT_PLUGIN_LOAD_FAILED naming the
 * plugin and the part, with the original error as `cause`.
 */
export function lazyImport<T>(plugin: string, part: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((cause: unknown) => {
      throw new PluginError('ASSISTANT_PLUGIN_LOAD_FAILED', `plugin "${plugin}" could not load its ${part}: ${(cause as Error)?.message ?? cause}`, { plugin, cause });
    }));
}
