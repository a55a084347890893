import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import { type Kernel } from '../../dist/core/index.js';
import { createRunner, openSession, type SessionState } from '../../dist/core/kits/agent/index.js';
import { TerminalApp } from '../../dist/plugins/ui-terminal/app.js';
import { PATIENT_MS, pollUntil } from '../support/wait.js';

/** The scripted provider and tool harness plugins the UI tests load, and the default script. */
export const FIXTURES = {
  provider: fileURLToPath(new URL('./fixtures/scripted-provider.mjs', import.meta.url)),
  tools: fileURLToPath(new URL('./fixtures/tool-harness.mjs', import.meta.url)),
  script: fileURLToPath(new URL('./fixtures/session-script.json', import.meta.url)),
};

/** An .assistantrc that selects the scripted provider (and the tool harness), plus extra plugins. */
export function scriptedConfig(extra: { plugins?: unknown[]; script?: string; [key: string]: unknown } = {}): string {
  const { plugins = [], script = FIXTURES.script, ...rest } = extra;
  return JSON.stringify({
    provider: { name: 'scripted', model: 'scripted-1' },
    ...rest,
    // The harness stands in for the built-in tools and policy so each screen is deterministic; the real
    // tools and policy are exercised through the CLI in test/e2e.
    plugins: [['tools-fs', false], ['tool-bash', false], ['permissions', false], [FIXTURES.provider, { script }], FIXTURES.tools, ...plugins],
  });
}

/** Boots a kernel for the project (interactive unless told otherwise) and starts it. */
export async function bootKernel(dir: string, env: NodeJS.ProcessEnv, headless = false): Promise<Kernel> {
  const kernel = await createKernel({ config: await loadConfig({ cwd: dir, env }), headless });
  kernel.hooks.commands.call(kernel.commands);
  await kernel.start();
  return kernel;
}

/** A TerminalApp on in-memory streams (not started), its events wired as the plugin wires them. */
export async function appFor(kernel: Kernel, env: NodeJS.ProcessEnv): Promise<TerminalApp> {
  const session = await openSession(kernel, { projectRoot: kernel.projectRoot, mode: 'default', provider: 'scripted', model: 'scripted-1' });
  kernel.session = session;
  const output = Object.assign(new PassThrough(), { columns: 80, rows: 24 });
  const app = new TerminalApp({
    kernel,
    session: { runner: createRunner(kernel, session) },
    input: new PassThrough() as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    options: {},
    env,
  });
  kernel.hooks.event.tap('test-forward', (event) => app.onEvent(event));
  return app;
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a TerminalApp for `session` on in-memory streams: `press` sends terminal bytes, `until`
 * waits (up to a minute: a loaded machine is slow) for text on the screen and returns the screen.
 */
export function startAppOn(kernel: Kernel, session: SessionState, env: NodeJS.ProcessEnv, size = { columns: 80, rows: 24 }) {
  const input = new PassThrough();
  const output = Object.assign(new PassThrough(), size);
  let screen = '';
  output.on('data', (d: Buffer) => (screen += d.toString()));
  const app = new TerminalApp({
    kernel,
    session: { runner: createRunner(kernel, session) },
    input: input as unknown as NodeJS.ReadStream,
    output: output as unknown as NodeJS.WriteStream,
    options: {},
    env,
  });
  const done = app.start();
  return {
    app,
    input,
    done,
    screen: () => screen,
    async press(bytes: string) {
      input.write(bytes);
      await tick(50); // past the wait that tells a lone Esc from a sequence
    },
    async until(text: string) {
      await pollUntil(() => screen.includes(text), PATIENT_MS, 20);
      return screen;
    },
  };
}
