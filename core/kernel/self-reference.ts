import { register } from 'node:module';
import { PACKAGE_NAME } from './version.js';

let registered = false;

/**
 * Makes a plugin's imports of this package's own name resolve to this running copy (see
 * self-reference-hooks.ts for why). Installed once, and only when a plugin from outside this
 * package is loaded: the hooks run on a thread of their own, a cost built-ins never pay.
 */
export function shareRunningAssistant(): void {
  if (registered) return;
  registered = true;
  // Resolving from a file inside the package uses the package's self-reference through its `exports`.
  const selfUrl = new URL('../index.js', import.meta.url).href;
  register(new URL('./self-reference-hooks.js', import.meta.url).href, { data: { selfUrl, packageName: PACKAGE_NAME } });
}
