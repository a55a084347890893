import { loadConfig } from '../../../dist/config/load.js';
import { createKernel } from '../../../dist/core/kernel/kernel.js';
import { type Kernel, type OriginEvent, type Plugin, type SessionEvent, type SessionSnapshot } from '../../../dist/core/index.js';
import { createRunner, openSession } from '../../../dist/core/kits/agent/index.js';
import { isolatedEnv, makeProject, writeFiles } from '../../support/project.js';
import { scriptedProvider } from './scripted-provider.js';
import { installToolRunner, testToolsPlugin } from './tools.js';

export const env = isolatedEnv();

/** What a context test session is made of. */
export interface ContextSessionOptions {
  /** `.assistantrc` values merged over the scripted provider's. */
  rc?: Record<string, unknown>;
  files?: Record<string, string>;
  window?: number;
  reply: Parameters<typeof scriptedProvider>[0]['reply'];
  summary?: Parameters<typeof scriptedProvider>[0]['summary'];
  failSummary?: boolean;
  tools?: Parameters<typeof testToolsPlugin>[0];
  plugins?: Plugin<any>[];
  model?: string;
  /** An existing project directory (a second process in the same project); its .assistantrc is rewritten. */
  dir?: string;
  /** A stored session to resume, as a new process does (`--continue`). */
  resume?: SessionSnapshot;
  /** A prompt cache shared with another session (a resumed run against the same provider). */
  cache?: Parameters<typeof scriptedProvider>[0]['cache'];
}

/** A kernel with the configured strategy, the scripted provider, test tools and an open session. */
export async function contextSession(options: ContextSessionOptions) {
  const model = options.model ?? 'claude-sonnet-4-5';
  const files = {
    // The stand-in tools replace the built-in file and shell tools (and Task, whose description would shift the token figures): strategies only see the registry and results.
    '.assistantrc': JSON.stringify({
      provider: { name: 'scripted', model },
      ...options.rc,
      plugins: [['tools-fs', false], ['tool-bash', false], ['agents', false], ['tool-webfetch', false], ...((options.rc?.plugins as unknown[]) ?? [])],
    }),
    ...options.files,
  };
  const dir = options.dir ?? makeProject();
  writeFiles(dir, files);
  const scripted = scriptedProvider({ reply: options.reply, summary: options.summary, window: options.window, failSummary: options.failSummary, model, cache: options.cache });
  const config = await loadConfig({ cwd: dir, env });
  const plugins: Plugin<any>[] = [scripted.plugin as Plugin<any>, testToolsPlugin(options.tools) as Plugin<any>, ...(options.plugins ?? [])];
  const kernel: Kernel = await createKernel({
    config,
    headless: true,
    extraPlugins: plugins.map((plugin) => ({ plugin, options: {}, source: 'inline', listedIn: 'test' })),
  });
  installToolRunner(kernel);
  const persisted: SessionEvent[] = [];
  kernel.hooks.sessionEvent.tapPromise('test-store', async (event) => void persisted.push(event));
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test-events', (event) => void events.push(event));
  await kernel.start();
  const session = await openSession(kernel, { projectRoot: dir, mode: 'bypass', provider: 'scripted', model, resume: options.resume });
  kernel.session = session;
  const runner = createRunner(kernel, session);
  const notices = () => events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
  return { dir, kernel, session, runner, scripted, events, persisted, notices };
}

/** Sends `count` prompts one after another; fails on the first that does not complete. */
export async function runPrompts(runner: ReturnType<typeof createRunner>, count: number, text = (i: number) => `Prompt ${i}: carry on with step ${i} of the task.`) {
  const results = [];
  for (let i = 0; i < count; i++) {
    const result = await runner.run(text(i));
    if (result.reason !== 'completed') throw new Error(`prompt ${i} ended with ${result.reason}: ${result.message}`);
    results.push(result);
  }
  return results;
}
