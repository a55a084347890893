import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { MessagesClient } from './messages-client.js';

/** The build's single-file bundle of the client (config/bundle-sdks.mjs); absent when run from source. */
const BUNDLED = fileURLToPath(new URL('../../vendor/anthropic-sdk.cjs', import.meta.url));

/**
 * The SDK client class the provider uses: from the bundle when the build made one (one file instead
 * of ~120, compiled with V8's code cache on Node 20: config/compile-cache.ts), else the same class
 * over the package as installed.
 */
export async function loadAnthropicSdk(): Promise<typeof MessagesClient> {
  if (existsSync(BUNDLED)) return (createRequire(import.meta.url)(BUNDLED) as { MessagesClient: typeof MessagesClient }).MessagesClient;
  return (await import('./messages-client.js')).MessagesClient;
}
