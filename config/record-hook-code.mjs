// Build step: the code tapable generates for the kernel's hooks in the CLI's everyday runs, compiled
// with the package instead of at run time. tapable turns each hook's taps into JavaScript source and
// compiles it with `new Function` the first time the hook is called: V8 parses and compiles ~20 such
// functions in every one-shot answer (~1.2 ms), with no code cache. This runs a one-shot answer and a
// scripted task in process (tsc's tree, the fake LLM server, a throwaway home and project), records
// what tapable compiled, and writes it as functions into dist/vendor/hook-calls.cjs. tapable's
// bundled HookCodeFactory (config/bundle-sdks.mjs) takes a function from there when its source is the
// one `new Function` would have made, character for character, and compiles anything else as before.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
const dist = join(root, 'dist');
const load = (path) => import(pathToFileURL(join(dist, path)).href);
const { PREWRAP } = await load('config/compile-cache.js');
const { startFakeLlm } = await load('core/testing/index.js');
const { main } = await load('bin/cli.js');

/** The runs: a one-shot answer, then a task that reads, searches, edits and runs a command. */
const ONE_SHOT = { turns: [{ name: 'answer', reply: { text: 'A short answer.' } }] };
const TASK = {
  turns: [
    { name: 'look', reply: { toolCalls: [{ id: 'r1', name: 'Read', input: { file_path: 'src/a.ts' } }, { id: 'r2', name: 'Read', input: { file_path: 'src/b.ts' } }, { id: 'g1', name: 'Grep', input: { pattern: 'TODO' } }] } },
    { name: 'edit', reply: { toolCalls: [{ id: 'e1', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'one', new_string: 'two' } }] } },
    { name: 'bash', reply: { toolCalls: [{ id: 'b1', name: 'Bash', input: { command: 'git status --short' } }] } },
    { name: 'answer', reply: { text: 'Done.' } },
  ],
};

/** Every `new Function` tapable's code factory makes while `run` runs: the function's source, as V8 gives it back. */
async function recordHookCode(run) {
  const sources = new Set();
  const original = globalThis.Function;
  globalThis.Function = new Proxy(original, {
    construct(target, args, newTarget) {
      const made = Reflect.construct(target, args, newTarget);
      if (new Error().stack?.includes('HookCodeFactory')) sources.add(made.toString());
      return made;
    },
  });
  try {
    await run();
  } finally {
    globalThis.Function = original;
  }
  return sources;
}

/** Runs the one-shot answer and the task in a throwaway home and project; resolves what tapable compiled. */
async function recordEverydayRuns() {
  const home = mkdtempSync(join(tmpdir(), 'assistant-hook-code-'));
  const project = join(home, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, '.assistantrc.json'), JSON.stringify({ provider: { name: 'anthropic' } }));
  writeFileSync(join(project, 'src/a.ts'), 'export const one = 1; // TODO\n');
  writeFileSync(join(project, 'src/b.ts'), 'export const b = 2;\n');
  const fake = await startFakeLlm({ fixture: ONE_SHOT });
  const saved = { env: { ...process.env }, cwd: process.cwd(), write: process.stdout.write };
  Object.assign(process.env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    ANTHROPIC_API_KEY: 'build',
    ANTHROPIC_BASE_URL: fake.anthropicBaseURL,
    NO_COLOR: '1',
  });
  for (const key of ['ASSISTANT_CONFIG_DIR', 'ASSISTANT_DATA_DIR', 'ASSISTANT_LOG_LEVEL', 'ASSISTANT_LOG_FILE', 'OPENAI_API_KEY', 'OPENAI_BASE_URL']) delete process.env[key];
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  let sources;
  try {
    process.chdir(project);
    execFileSync('git', ['init', '-q'], { cwd: project });
    // The answers go nowhere: only the hooks' code is wanted.
    process.stdout.write = () => true;
    sources = await recordHookCode(async () => {
      for (const [fixture, argv] of [
        [ONE_SHOT, ['-p', 'Say something short.', '--trust-project']],
        [TASK, ['-p', 'Edit a and check git status.', '--permission-mode', 'bypass', '--trust-project']],
      ]) {
        fake.setFixture(fixture);
        fake.reset();
        const code = await main(argv, version);
        if (code !== 0) throw new Error(`record-hook-code: the run ${argv.join(' ')} exited ${code}`);
      }
    });
  } finally {
    process.stdout.write = saved.write;
    process.chdir(saved.cwd);
    process.env = saved.env;
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
  return sources;
}

// A machine that cannot run them (no git, say) builds a package that compiles its hooks' code at run
// time, as before: a warning, not a failed build (test/kernel/prebuilt-hook-code.test.ts fails instead).
let sources = new Set();
try {
  sources = await recordEverydayRuns();
} catch (error) {
  console.warn(`record-hook-code: no hook code recorded (${error?.message ?? error}); hooks compile their code at run time`);
}

const out = join(dist, 'vendor', 'hook-calls.cjs');
writeFileSync(
  out,
  `${PREWRAP.head}\n// Generated by config/record-hook-code.mjs: tapable's code for the kernel's hooks in the CLI's everyday runs.\nmodule.exports = [\n${[...sources].join(',\n')}\n];${PREWRAP.tail}\n`,
);
console.log(`recorded ${sources.size} hook functions into dist/vendor/hook-calls.cjs`);
