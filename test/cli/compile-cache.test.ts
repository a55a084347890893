// On Node 20, the CLI keeps V8's compiled code of the package's CommonJS bundles (the runtime, the
// pool threads' runtime, the provider SDK, the precompiled validators) in the user's cache (config/compile-cache.ts): written once, used
// as it is afterwards, and a cache V8 refuses (damaged, another Node) costs nothing but a rewrite.
import * as nodeModule from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { isolatedEnv, makeProject } from '../support/project.js';
import { startFakeLlm, type FakeLlm } from '../providers/helpers.js';

const TOOLS_BUNDLE = new URL('../../dist/bundle/tools.cjs', import.meta.url).pathname;

/** The size of V8's cache of tools.cjs with its top level run and nothing else: what a pool thread would keep if it saved its cache on loading. */
function topLevelCacheSize(): number {
  const script = new vm.Script(nodeModule.Module.wrap(readFileSync(TOOLS_BUNDLE, 'utf8')), { filename: TOOLS_BUNDLE });
  const module = { exports: {} };
  (script.runInThisContext() as Function).call(module.exports, module.exports, nodeModule.createRequire(TOOLS_BUNDLE), module, TOOLS_BUNDLE, dirname(TOOLS_BUNDLE));
  return script.createCachedData().length;
}

// Node 22.1+ keeps every module's code through module.enableCompileCache instead.
const nodeCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
if (nodeCompileCache) console.warn(`the Node 20 code cache tests are skipped: Node ${process.version} has module.enableCompileCache`);

let fake: FakeLlm;
let tools: FakeLlm;
let shell: FakeLlm;
beforeAll(async () => {
  // A loop: more than the mini parser takes, so the permission engine compiles the bash grammar's WebAssembly.
  shell = await startFakeLlm({
    fixture: {
      turns: [
        { name: 'loop', reply: { toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'for word in cached code; do echo "$word"; done' } }] } },
        { name: 'answer', reply: { text: 'looped' } },
      ],
    },
  });
  fake = await startFakeLlm({ fixture: { fallback: { text: 'cached answer' } } });
  tools = await startFakeLlm({
    fixture: {
      turns: [
        { name: 'read', reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'notes.txt' } }] } },
        { name: 'answer', reply: { text: 'read it' } },
      ],
    },
  });
});
afterAll(() => Promise.all([fake.close(), tools.close(), shell.close()]));

describe.skipIf(nodeCompileCache)('the code cache of the CommonJS bundles (Node 20)', () => {
  const setup = () => {
    const env = isolatedEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const dir = join(env.XDG_CACHE_HOME!, 'assistant', 'compile-cache', 'v8-cjs');
    const cwd = makeProject({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }) });
    const ask = async () => {
      const run = await runCli(['-p', 'hi', '--trust-project'], { cwd, env });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('cached answer');
    };
    const files = () => Object.fromEntries(readdirSync(dir).map((name) => [name, { bytes: readFileSync(join(dir, name)), mtime: statSync(join(dir, name)).mtimeMs }]));
    return { env, cwd, dir, ask, files };
  };

  it('is written by the first run, private to the user, and read as it is by the next', async () => {
    const { dir, ask, files } = setup();
    await ask();
    const first = files();
    // The runtime, the validators, the runtime's CommonJS packages, the hooks' prebuilt code and the SDK bundle; no temporary file left behind.
    expect(Object.keys(first).map((name) => name.split('-v')[0]).sort()).toEqual(['anthropic-sdk.cjs', 'hook-calls.cjs', 'runtime-deps.cjs', 'runtime.cjs', 'validators.cjs']);
    for (const name of Object.keys(first)) expect(name).toMatch(/^[\w-]+\.cjs-v\d+\.\d+\.\d+-[0-9a-z]+(\.[0-9a-z]+){4}-\d+\.v4\.bin$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of Object.keys(first)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    await ask();
    expect(files()).toEqual(first);
  });

  it("is written for a pool thread's bundle by the thread, which is terminated rather than exits, and read by the next run's", async () => {
    const env = isolatedEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: tools.anthropicBaseURL });
    const dir = join(env.XDG_CACHE_HOME!, 'assistant', 'compile-cache', 'v8-cjs');
    // Over 32 KiB: a Read of a smaller file runs on the main thread (ToolDefinition.inline), and no pool thread would start.
    const cwd = makeProject({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }), 'notes.txt': 'read me\n'.repeat(5000) });
    const read = async () => {
      tools.reset();
      const run = await runCli(['-p', 'read notes', '--trust-project'], { cwd, env });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('read it');
      return Object.fromEntries(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs]));
    };
    const first = await read();
    // Five more than a run without tools: dist/bundle/tools.cjs, compiled in the pool thread, the
    // pool's piscina (dist/vendor/pool-deps.cjs), the permission engine's part, which judged the Read,
    // the path matchers it ran (dist/vendor/match-deps.cjs) and the Read's input validator
    // (dist/schemas/validators-more.cjs: a start validates only the config and the permission options for real).
    expect(Object.keys(first).map((name) => name.split('-v')[0]).sort()).toEqual([
      'anthropic-sdk.cjs',
      'hook-calls.cjs',
      'match-deps.cjs',
      'pool-deps.cjs',
      'runtime-deps.cjs',
      'runtime-permissions.cjs',
      'runtime.cjs',
      'tools.cjs',
      'validators-more.cjs',
      'validators.cjs',
    ]);
    // Saved after the Read ran, so it holds the tool's code, not only the bundle's top level.
    const toolsCache = Object.keys(first).find((name) => name.startsWith('tools.cjs-'))!;
    expect(statSync(join(dir, toolsCache)).size).toBeGreaterThan(1.5 * topLevelCacheSize());
    expect(await read()).toEqual(first);
  });

  it('is written before a WebAssembly compile changes V8 flags, so the next run, which compiles none, takes it as it is', async () => {
    const { env, cwd, ask, files } = setup();
    const loop = await runCli(['-p', 'loop', '--trust-project', '--permission-mode', 'bypass'], { cwd, env: { ...env, ANTHROPIC_BASE_URL: shell.anthropicBaseURL } });
    expect(loop.stderr).toBe('');
    expect(loop.stdout.trim()).toBe('looped');
    const written = files();
    // The runtime's bundles, written when the grammar was about to compile; nothing at exit under the new flags.
    expect(Object.keys(written).filter((name) => name.startsWith('runtime.cjs-'))).toHaveLength(1);
    await ask();
    const after = files();
    for (const [name, cache] of Object.entries(written)) expect(after[name], name).toEqual(cache);
  });

  it('is written again by a run that did more than the run that wrote it, and not by one that did less', async () => {
    const env = isolatedEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL });
    const dir = join(env.XDG_CACHE_HOME!, 'assistant', 'compile-cache', 'v8-cjs');
    const cwd = makeProject({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }), 'notes.txt': 'read me\n'.repeat(5000) });
    const runtimeCache = () => {
      const name = readdirSync(dir).find((file) => file.startsWith('runtime.cjs-'))!;
      const bytes = readFileSync(join(dir, name));
      // The first 4 bytes: how many built-in modules the writing run had loaded.
      return { name, bytes, writerModules: bytes.readUInt32LE(0), mtime: statSync(join(dir, name)).mtimeMs };
    };
    const answer = async () => expect((await runCli(['-p', 'hi', '--trust-project'], { cwd, env })).stdout.trim()).toBe('cached answer');
    const read = async () => {
      tools.reset();
      expect((await runCli(['-p', 'read notes', '--trust-project'], { cwd, env: { ...env, ANTHROPIC_BASE_URL: tools.anthropicBaseURL } })).stdout.trim()).toBe('read it');
    };
    await answer();
    const byAnswer = runtimeCache();
    // A run with tools loads more (the pool, the permission engine, the tools' code): it writes the cache again, with its code too.
    await read();
    const byRead = runtimeCache();
    expect(byRead.name).toBe(byAnswer.name);
    expect(byRead.writerModules).toBeGreaterThan(byAnswer.writerModules);
    expect(byRead.bytes.length).toBeGreaterThan(byAnswer.bytes.length);
    // Neither a run that does less nor one that does as much writes it again.
    await answer();
    await read();
    expect(runtimeCache()).toEqual(byRead);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE, as Node 22 has it', async () => {
    const env = isolatedEnv({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL, NODE_DISABLE_COMPILE_CACHE: '1' });
    const cwd = makeProject({ '.assistantrc.json': JSON.stringify({ provider: { name: 'anthropic' } }) });
    const run = await runCli(['-p', 'hi', '--trust-project'], { cwd, env });
    expect(run.stdout.trim()).toBe('cached answer');
    expect(existsSync(join(env.XDG_CACHE_HOME!, 'assistant', 'compile-cache'))).toBe(false);
  });

  it('is replaced when V8 refuses it, and the run goes on as if there were none', async () => {
    const { dir, ask, files } = setup();
    await ask();
    const [name] = Object.keys(files()).sort();
    writeFileSync(join(dir, name!), 'not a code cache');
    await ask();
    const rewritten = files()[name!]!;
    expect(rewritten.bytes.toString()).not.toBe('not a code cache');
    expect(rewritten.bytes.length).toBeGreaterThan(10_000);
    await ask();
    expect(files()[name!]).toEqual(rewritten);
  });

  it("keeps a bundle file's newest caches when it writes one, and removes the older ones other builds left", async () => {
    const { dir, ask, files } = setup();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Four caches of older builds of runtime.cjs (oldest first) and one of the validators.
    const stale = (name: string, age: number) => {
      writeFileSync(join(dir, name), 'an older build');
      const at = Date.now() / 1000 - age;
      utimesSync(join(dir, name), at, at);
    };
    const older = ['runtime.cjs-v20.0.0-00000001-1.bin', 'runtime.cjs-v20.0.0-00000002-1.bin', 'runtime.cjs-v20.0.0-00000003-1.bin', 'runtime.cjs-v20.0.0-00000004-1.bin'];
    older.forEach((name, i) => stale(name, 4000 - i * 1000));
    stale('validators.cjs-v20.0.0-00000001-1.bin', 500);
    await ask();
    const names = Object.keys(files());
    const runtime = names.filter((name) => name.startsWith('runtime.cjs-'));
    // The one written now and the two newest of the others.
    expect(runtime).toHaveLength(3);
    expect(runtime.filter((name) => !older.includes(name))).toHaveLength(1);
    expect(runtime).toEqual(expect.arrayContaining(older.slice(2)));
    // Another bundle file's caches are its own: two of them, both kept.
    expect(names.filter((name) => name.startsWith('validators.cjs-'))).toHaveLength(2);
    expect(names.filter((name) => name.startsWith('runtime-deps.cjs-'))).toHaveLength(1);
  });
});

describe('the compile cache folder, on any Node', () => {
  it("is a control folder: a tool's write to it needs a person outside bypass", async () => {
    const env = isolatedEnv();
    const target = join(env.XDG_CACHE_HOME!, 'assistant', 'compile-cache', 'v8-cjs', `${'a'.repeat(40)}.bin`);
    const cwd = makeProject();
    for (const [tool, input] of [['Write', { file_path: target, content: 'x' }], ['Bash', { command: `cp /dev/null ${target}` }]] as const)
      for (const mode of ['default', 'acceptEdits']) {
        const run = await runCli(['permissions', 'check', '--tool', tool, '--input', JSON.stringify(input), '--mode', mode, '--json'], { cwd, env });
        const decision = JSON.parse(run.stdout) as { behavior: string; reason: string };
        expect(decision.behavior, `${tool} ${mode}`).toBe('ask');
        expect(decision.reason).toMatch(/steers assistant itself .*assistant's caches/);
      }
  });
});
