import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type OpenAI from 'openai';

/** The build's single-file bundle of the SDK (config/bundle-sdks.mjs); absent when run from source. */
const BUNDLED = new URL('../../vendor/openai.mjs', import.meta.url);

/** The SDK's client class: from the bundle when the build made one (about half the import CPU), else the package. */
export async function loadOpenAiSdk(): Promise<typeof OpenAI> {
  if (existsSync(fileURLToPath(BUNDLED))) return ((await import(BUNDLED.href)) as { default: typeof OpenAI }).default;
  return (await import('openai')).default;
}
