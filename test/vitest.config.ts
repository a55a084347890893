import { defineConfig } from 'vitest/config';

// Tests import the compiled package from dist/ (npm test builds first), so worker modules,
// plugin loading and the CLI are exercised exactly as users run them.
export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts', 'examples/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
