import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';
import { tempDir } from '../support/project.js';

export const CHROMIUM = '/usr/bin/chromium';

/** True when Debian's chromium is there; under CI=true its absence is a failure, elsewhere a skip with a printed reason. */
export function haveChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI === 'true') throw new Error(`${CHROMIUM} is missing, and CI=true requires the browser tests to run (apt-get install chromium)`);
  console.warn(`skipping the web UI browser test: ${CHROMIUM} is not installed (apt-get install chromium)`);
  return false;
}

/** A headless Chromium with a fresh profile, no network chatter of its own. */
export function launchChromium(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(tempDir('assistant-chromium-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
}
