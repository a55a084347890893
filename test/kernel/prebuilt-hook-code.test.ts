// tapable compiles each hook's generated code with `new Function` on the hook's first call. The
// build records that code for the CLI's everyday runs and ships it compiled (config/record-hook-code.mjs,
// dist/vendor/hook-calls.cjs); the bundled code factory takes a shipped function only when its
// source is exactly what `new Function` would make, and compiles anything else as before.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, tempDir } from '../support/project.js';
import { gitProject, sharedFakeLlm } from '../e2e/support.js';

const VENDOR = fileURLToPath(new URL('../../dist/vendor/', import.meta.url));

/** A preload that counts every `new Function` of the process and writes the count at exit. */
function countingPreload(): { preload: string; count: () => number } {
  const dir = tempDir('assistant-hook-code-');
  const preload = join(dir, 'count.cjs');
  const out = join(dir, 'count');
  writeFileSync(
    preload,
    `let made = 0;
    globalThis.Function = new Proxy(Function, { construct: (target, args, newTarget) => (made++, Reflect.construct(target, args, newTarget)) });
    process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(out)}, String(made)));`,
  );
  return { preload, count: () => Number(readFileSync(out, 'utf8')) };
}

describe("the hooks' prebuilt code", () => {
  const fake = sharedFakeLlm();

  it('is all a one-shot answer and a task need: neither compiles any at run time', async () => {
    const dir = gitProject({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }), 'src/a.ts': 'export const one = 1; // TODO\n' });
    const { preload, count } = countingPreload();
    const env = isolatedEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.server.anthropicBaseURL, NODE_OPTIONS: `--require ${preload}` });

    fake.script({ turns: [{ name: 'answer', reply: { text: 'A short answer.' } }] });
    const answer = await runCli(['-p', 'Say something short.', '--trust-project'], { cwd: dir, env });
    expect([answer.code, answer.stdout.trim()], answer.stderr).toEqual([0, 'A short answer.']);
    expect(count()).toBe(0);

    fake.script({
      turns: [
        { name: 'look', reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'src/a.ts' } }, { id: 'g1', name: 'Grep', input: { pattern: 'TODO' } }] } },
        { name: 'edit', reply: { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'one', new_string: 'two' } }] } },
        { name: 'bash', reply: { toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'git status --short' } }] } },
        { name: 'answer', reply: { text: 'Done.' } },
      ],
    });
    const task = await runCli(['-p', 'Edit a and check git status.', '--permission-mode', 'bypass', '--trust-project'], { cwd: dir, env });
    expect([task.code, task.stdout.trim()], task.stderr).toEqual([0, 'Done.']);
    expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const two = 1; // TODO\n');
    expect(count()).toBe(0);
  });

  it("is each exactly the source tapable's `new Function` makes for it", () => {
    const shipped = createRequire(import.meta.url)(join(VENDOR, 'hook-calls.cjs')) as Function[];
    expect(shipped.length).toBeGreaterThan(10);
    for (const fn of shipped) {
      const source = Function.prototype.toString.call(fn);
      const [, args, code] = /^function anonymous\(([^)]*)\n\) \{\n([\s\S]*)\n\}$/.exec(source)!;
      expect(code).toMatch(/^"use strict";\n/);
      expect(Function.prototype.toString.call(new Function(args!, code!))).toBe(source);
    }
  });

  it('compiles the code of a hook it has no function for, as tapable does', async () => {
    const { tapable } = createRequire(import.meta.url)(join(VENDOR, 'runtime-deps.cjs')) as { tapable: typeof import('tapable') };
    const original = globalThis.Function;
    let made = 0;
    globalThis.Function = new Proxy(original, { construct: (target, args, newTarget) => (made++, Reflect.construct(target, args, newTarget)) });
    try {
      // Seven promise taps on a waterfall with three arguments: no everyday run has it.
      const hook = new tapable.AsyncSeriesWaterfallHook<[number, string, string]>(['value', 'second', 'third']);
      for (let i = 0; i < 7; i++) hook.tapPromise(`add${i}`, async (value) => value + i);
      expect(await hook.promise(1, 'a', 'b')).toBe(22);
      expect(made).toBe(1);
      expect(await hook.promise(2, 'a', 'b')).toBe(23);
      expect(made).toBe(1);
    } finally {
      globalThis.Function = original;
    }
  });
});
