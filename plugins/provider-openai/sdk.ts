import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type OpenAI from 'openai';

/** The build's single-file bundle of the SDK (config/bundle-sdks.mjs); absent when run from source. */
const BUNDLED = fileURLToPath(new URL('../../vendor/openai.cjs', import.meta.url));

/** The SDK's client class: from the bundle when the build made one (about half the load CPU), else the package. */
export async function loadOpenAiSdk(): Promise<typeof OpenAI> {
  if (existsSync(BUNDLED)) return (createRequire(import.meta.url)(BUNDLED) as { default: typeof OpenAI }).default;
  return (await import('openai')).default;
}
