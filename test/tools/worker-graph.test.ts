// A pool worker imports only its tool's module graph: the built-in worker modules must not reach the
// main entry (the kernel, tapable, ajv, the runtime), which would be loaded again in every thread.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const WORKERS = [
  'plugins/tools-fs/read.worker.js',
  'plugins/tools-fs/write.worker.js',
  'plugins/tools-fs/edit.worker.js',
  'plugins/tools-fs/glob.worker.js',
  'plugins/tools-fs/grep.worker.js',
  'plugins/tools-fs/ls.worker.js',
  'plugins/tool-bash/bash.worker.js',
  'plugins/tool-webfetch/webfetch.worker.js',
  'core/tools/worker.js',
];

/** Every file of this package a module statically imports, transitively (relative specifiers only). */
function graph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const [, spec] of source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms)) visit(resolve(dirname(file), spec));
  };
  visit(join(dist, entry));
  return new Set([...seen].map((file) => relative(dist, file)));
}

describe('worker module graphs', () => {
  it.each(WORKERS)('%s does not load the main entry or the kernel', (worker) => {
    const files = graph(worker);
    expect(files.size).toBeGreaterThan(1);
    for (const heavy of ['core/index.js', 'core/kernel/kernel.js', 'core/tools/runtime.js', 'core/kernel/hooks.js']) expect([...files]).not.toContain(heavy);
  });
});
