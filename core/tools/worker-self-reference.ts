import { fileURLToPath } from 'node:url';
import { shareRunningAssistantFor } from '../kernel/self-reference.js';

/** This package's folder (built: dist/): tool modules under it are built-ins. */
const OWN_FILES = new URL('../../', import.meta.url).href;

/**
 * Called in a pool worker before it imports a tool module. Resolution hooks registered on the main
 * thread do not reach worker threads (Node 20), so a third-party tool module that imports this
 * package by name would find no copy (a global install, a plugin by path) or the project's own copy.
 * Built-in modules never need it, so their workers never pay for the hooks thread.
 */
export function shareRunningAssistantWith(moduleUrl: string): void {
  let normalized: string;
  try {
    normalized = new URL(moduleUrl).href; // `..` segments folded, so a path cannot pose as a built-in
  } catch {
    return; // not a URL: the import itself reports it
  }
  if (!normalized.startsWith(OWN_FILES) && normalized.startsWith('file:')) shareRunningAssistantFor(fileURLToPath(normalized));
}
