import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Anthropic from '@anthropic-ai/sdk';

/** The build's single-file bundle of the SDK (config/bundle-sdks.mjs); absent when run from source. */
const BUNDLED = new URL('../../vendor/anthropic-sdk.mjs', import.meta.url);

/**
 * The SDK's client class: from the bundle when the build made one (one module instead of ~250,
 * about half the import CPU), else the package as installed.
 */
export async function loadAnthropicSdk(): Promise<typeof Anthropic> {
  if (existsSync(fileURLToPath(BUNDLED))) return ((await import(BUNDLED.href)) as { default: typeof Anthropic }).default;
  return (await import('@anthropic-ai/sdk')).default;
}
