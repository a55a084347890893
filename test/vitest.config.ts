import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dist = (path: string) => fileURLToPath(new URL(`../dist/${path}`, import.meta.url));

// Tests import the compiled package from dist/ (npm test builds first), so worker modules,
// plugin loading and the CLI are exercised exactly as users run them. The example plugins import
// the package by name, as third parties do: the aliases point those names at the build.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@assistant-cli\/assistant$/, replacement: dist('core/index.js') },
      { find: /^@assistant-cli\/assistant\/testing$/, replacement: dist('config/test-kit.js') },
      { find: /^@assistant-cli\/assistant\/kits\/([a-z]+)$/, replacement: dist('core/kits/$1/index.js') },
    ],
  },
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    setupFiles: ['test/support/hermetic-env.ts'],
    // Sized for CI: a 2-core machine that may be saturated (load 6-7), where one CLI start takes
    // seconds. A timeout only ends a test that hangs; no assertion may depend on the machine's speed.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // expect.poll gives up after 1 s by default: too short for a busy machine.
    expect: { poll: { timeout: 60_000 } },
    pool: 'forks',
    reporters: ['default'],
  },
});
