import type { Plugin } from './kernel-types.js';

/**
 * Declares a plugin. It returns the plugin unchanged: the value of the helper is the types
 * (options typed from the generic, the kernel and hooks typed for `apply`).
 */
export function definePlugin<Options = Record<string, unknown>>(plugin: Plugin<Options>): Plugin<Options> {
  return plugin;
}
