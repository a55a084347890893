import { createRequire, register } from 'node:module';
import { dirname } from 'node:path';
import { importsOnlyBuiltins, resolvesToRunningCopy } from './imports-scan.js';
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

/**
 * Installs the hooks for a module from outside this package unless it cannot need them: it resolves
 * this package's name to this very copy already, or it imports nothing but Node's built-ins and its
 * own relative files. The hooks thread costs a start ~250 ms and ~25 MiB.
 */
export function shareRunningAssistantFor(file: string): void {
  if (registered) return;
  if (resolvesToRunningCopy(file, PACKAGE_NAME, ownRoot()) || importsOnlyBuiltins(file)) return;
  shareRunningAssistant();
}

/** The folder of this package's package.json, through the package's self-reference (built or from source). */
const ownRoot = () => dirname(createRequire(import.meta.url).resolve(`${PACKAGE_NAME}/package.json`));
