import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MessagesClient } from './messages-client.js';

/** The build's single-file bundle of the client (config/bundle-sdks.mjs); absent when run from source. */
const BUNDLED = new URL('../../vendor/anthropic-sdk.mjs', import.meta.url);

/**
 * The SDK client class the provider uses: from the bundle when the build made one (one module instead
 * of ~120), else the same class over the package as installed.
 */
export async function loadAnthropicSdk(): Promise<typeof MessagesClient> {
  if (existsSync(fileURLToPath(BUNDLED))) return ((await import(BUNDLED.href)) as { MessagesClient: typeof MessagesClient }).MessagesClient;
  return (await import('./messages-client.js')).MessagesClient;
}
