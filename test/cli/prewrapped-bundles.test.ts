// The build writes Node's CommonJS wrapper into every file the Node 20 compile hook compiles, and
// calls it at the file's end (config/compile-cache.ts, PREWRAP): a plain require runs such a file as
// before, and the hook compiles the file's own function, a slice of its text, instead of
// concatenating Node's wrapper to ~0.5 MB of source (that V8 copies whole). The hook reads a file
// that is all ASCII, as the build's are, as one-byte text rather than decoding UTF-8. A file where anything but
// the source map's comment follows the call goes through Node's wrapper.
import { isAscii } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PREWRAP } from '../../dist/config/compile-cache.js';
import { isolatedEnv, tempDir } from '../support/project.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The package's CommonJS files compiled once the hook is on: not the starts (main, start, worker), compiled before it. */
function hookedFiles(): string[] {
  const starts = new Set(['main.cjs', 'start.cjs', 'worker.cjs']);
  return [
    ...readdirSync(join(DIST, 'bundle')).filter((name) => name.endsWith('.cjs') && !starts.has(name)).map((name) => `bundle/${name}`),
    ...readdirSync(join(DIST, 'vendor')).filter((name) => name.endsWith('.cjs')).map((name) => `vendor/${name}`),
    'schemas/validators.cjs',
    'schemas/validators-more.cjs',
  ];
}

/** What a fixture reports: how many frames of its own file are on the stack while its top level runs (Node's wrapper adds one). */
const REPORT = `module.exports = { frames: new Error().stack.split('\\n').filter((line) => line.includes(__filename)).length, thisIsExports: this === module.exports, required: typeof require('node:path').join };`;

const nodeCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

describe('the pre-wrapped CommonJS files', () => {
  it('are every file the hook compiles, all ASCII, each opening with the wrapper and calling it at its end', () => {
    const files = hookedFiles();
    expect(files).toEqual(expect.arrayContaining(['bundle/runtime.cjs', 'bundle/tools.cjs', 'bundle/runtime-permissions.cjs', 'vendor/anthropic-sdk.cjs', 'vendor/runtime-deps.cjs', 'schemas/validators.cjs']));
    for (const file of files) {
      const bytes = readFileSync(join(DIST, file));
      // All ASCII: the hook reads them as one-byte text, not decoding UTF-8.
      expect(isAscii(bytes), file).toBe(true);
      const text = bytes.toString('latin1');
      expect(text.startsWith(PREWRAP.head), file).toBe(true);
      expect(text.slice(text.lastIndexOf(PREWRAP.tail) + PREWRAP.tail.length), file).toMatch(/^\s*(\/\/# sourceMappingURL=\S+\s*)?$/);
    }
  });

  it.skipIf(nodeCompileCache)('are compiled by the hook as their own function, from the cache the next time, and run as a plain require runs them', () => {
    // A dist/ of the hook and its one import, with three fixtures beside it.
    const dist = tempDir('assistant-prewrap-');
    for (const file of ['config/compile-cache.js', 'core/util/paths.js']) cpSync(join(DIST, file), join(dist, file));
    writeFileSync(join(dist, 'package.json'), JSON.stringify({ type: 'module' }));
    mkdirSync(join(dist, 'fixtures'));
    const fixtures = {
      'pre.cjs': `${PREWRAP.head}\n${REPORT}${PREWRAP.tail}\n//# sourceMappingURL=pre.cjs.map\n`,
      // Code after the call: compiled with Node's wrapper, so it runs too.
      'after.cjs': `${PREWRAP.head}\n${REPORT}${PREWRAP.tail}\nmodule.exports.after = true;\n`,
      'plain.cjs': `${REPORT}\n`,
      // Read as one-byte text when all ASCII, as UTF-8 otherwise.
      'utf8.cjs': `${REPORT}\nmodule.exports.text = 'h\u00e9llo \u2192 \u{1F600}';\n`,
    };
    for (const [name, text] of Object.entries(fixtures)) writeFileSync(join(dist, 'fixtures', name), text);
    const script = `const { enableCompileCache } = await import(${JSON.stringify(join(dist, 'config/compile-cache.js'))});
      enableCompileCache();
      const { createRequire } = await import('node:module');
      const require = createRequire(${JSON.stringify(join(dist, 'fixtures/'))});
      process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(Object.keys(fixtures))}.map((name) => [name, require('./' + name)]))));`;
    const env = isolatedEnv();
    const run = (extra: Record<string, string> = {}) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...env, ...extra }, encoding: 'utf8' }));

    const plain = run({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(plain).toEqual({
      'pre.cjs': { frames: 2, thisIsExports: true, required: 'function' },
      'after.cjs': { frames: 2, thisIsExports: true, required: 'function', after: true },
      'plain.cjs': { frames: 1, thisIsExports: true, required: 'function' },
      'utf8.cjs': { frames: 1, thisIsExports: true, required: 'function', text: 'h\u00e9llo \u2192 \u{1F600}' },
    });
    const hooked = { ...plain, 'pre.cjs': { ...plain['pre.cjs'], frames: 1 } };
    expect(run()).toEqual(hooked);
    const caches = readdirSync(join(env.XDG_CACHE_HOME!, 'assistant/compile-cache/v8-cjs'));
    expect(caches.map((name) => name.split('-v')[0]).sort()).toEqual(['after.cjs', 'plain.cjs', 'pre.cjs', 'utf8.cjs']);
    // Again, from the caches written at the first run's exit: the same.
    expect(run()).toEqual(hooked);
    expect(readdirSync(join(env.XDG_CACHE_HOME!, 'assistant/compile-cache/v8-cjs')).sort()).toEqual(caches.sort());
  });
});
