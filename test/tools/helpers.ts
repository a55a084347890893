import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../dist/config/load.js';
import { createKernel } from '../../dist/core/kernel/kernel.js';
import type { Kernel, Plugin, ToolBatchContext, ToolCallPart, ToolResultPart, OriginEvent, AssistantConfig } from '../../dist/core/index.js';
import type { ToolRuntimeOptions } from '../../dist/core/index.js';

/** The probe worker module's URL (plain JS, so tests need no build step for it). */
export const PROBE = new URL('./fixtures/probe.worker.mjs', import.meta.url).href;

/** A plugin that allows every call (the permission policy is another plugin's job). */
export const allowAll: Plugin = {
  name: 'test-allow-all',
  apply(kernel) {
    kernel.hooks.permission.tapPromise('test-allow-all', async () => ({ behavior: 'allow', reason: 'test', layer: 'test' }));
  },
};

/** An inline plugin from an apply function. */
export function inline(name: string, apply: Plugin['apply']): Plugin {
  return { name, apply };
}

/**
 * A kernel for `root` with the default plugins plus `plugins`; events are collected. The built-in
 * permission policy is disabled: these tests exercise the runtime with policies of their own.
 */
export async function kernelFor(
  root: string,
  plugins: Plugin[] = [allowAll],
  options: { headless?: boolean; toolRuntime?: ToolRuntimeOptions; config?: AssistantConfig } = {},
): Promise<{ kernel: Kernel; events: OriginEvent[] }> {
  const flags: AssistantConfig = { ...options.config, plugins: [['permissions', false], ...(options.config?.plugins ?? [])] };
  const config = await loadConfig({ cwd: root, flags, noUserConfig: true });
  const kernel = await createKernel({
    config,
    headless: options.headless ?? true,
    toolRuntime: { abortGraceMs: 200, ...options.toolRuntime },
    extraPlugins: plugins.map((plugin) => ({ plugin, options: {}, source: 'test', listedIn: 'test' })),
  });
  const events: OriginEvent[] = [];
  kernel.hooks.event.tap('test-events', (event) => void events.push(event));
  return { kernel, events };
}

let ids = 0;
/** A tool call with a fresh id. */
export function call(name: string, input: Record<string, unknown>, id = `call-${++ids}`): ToolCallPart {
  return { type: 'tool_call', id, name, input };
}

/** A batch context (default mode, fresh signal). */
export function batch(extra: Partial<ToolBatchContext> = {}): ToolBatchContext {
  return { mode: 'default', signal: new AbortController().signal, turn: 1, sessionId: 'session-1', ...extra };
}

/** The text of a result. */
export { resultText as text } from '../../dist/core/testing/index.js';

/** Runs calls and returns the results. */
export function runCalls(kernel: Kernel, calls: ToolCallPart[], context: Partial<ToolBatchContext> = {}): Promise<ToolResultPart[]> {
  return kernel.runToolCalls(calls, batch(context));
}

/** Runs one call and returns its result. */
export async function runOne(kernel: Kernel, name: string, input: Record<string, unknown>, context: Partial<ToolBatchContext> = {}): Promise<ToolResultPart> {
  return (await runCalls(kernel, [call(name, input)], context))[0]!;
}

/** True when a system tool must be present (CI), false when a test may skip without it. */
export const mustHaveTools = process.env.CI === 'true';

/**
 * A server on 127.0.0.1 answering "reached", started before the file's tests and closed after them,
 * together with the kernels the tests created: what sandboxed commands try to reach.
 */
export function reachableServer(kernels: Kernel[]): { readonly url: string } {
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    for (const kernel of kernels.splice(0)) await kernel.shutdown();
    server?.close();
  });
  return {
    get url() {
      return url;
    },
  };
}
