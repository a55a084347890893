/**
 * The entry every pool worker runs: imports the tool's module (once per worker), hands it the task
 * and a cancellation signal, and turns a throw into an error result so its code survives the
 * thread boundary (structured clone keeps only an Error's message). It tells the pool when the tool
 * starts and how long it ran: the pool's growth policy (pool-growth.ts) counts on both.
 */
import type { MessagePort } from 'node:worker_threads';
import { thrownResult } from './results.js';
import { shareRunningAssistantWith } from './worker-self-reference.js';
import { importRuntime } from '../util/runtime-module.js';
import type { ToolResult, WorkerRun, WorkerTask } from '../types/tools.js';

/** What the pool sends a worker for one call. */
export interface WorkerPayload {
  module: string;
  exportName: string;
  task: WorkerTask;
  /** Carries `abort` in, `started` and `process` (child pids to kill on teardown) out. */
  port: MessagePort;
}

/**
 * Messages between the runtime and a running task: `abort` in; `started` (the tool's module is
 * loaded and the tool is running: the pool's growth policy counts from here) and `process` out.
 */
export type PortMessage = { type: 'abort'; reason: string } | { type: 'started' } | { type: 'process'; pid: number };

/** What a worker returns for one call: the tool's result, and how long `run` took on this thread (the pool's growth policy adds it up; 0 for a tool's first call in the thread). */
export interface WorkerOutcome {
  result: ToolResult;
  runMs: number;
}

const modules = new Map<string, Promise<Record<string, unknown>>>();

function load(url: string): Promise<Record<string, unknown>> {
  let loaded = modules.get(url);
  if (!loaded) {
    shareRunningAssistantWith(url);
    loaded = importRuntime(url);
    // A module that failed to load may be fixed on disk: try again next time.
    loaded.catch(() => modules.delete(url));
    modules.set(url, loaded);
  }
  return loaded;
}

export default async function runTask(payload: WorkerPayload): Promise<WorkerOutcome> {
  // A tool's first call in a thread also warms its code (lazy imports, a cold JIT): like loading
  // its module, that is the cost of a new thread, not work that queued calls waited for.
  const warm = modules.has(payload.module);
  let startedAt: number | undefined;
  const result = await runTool(payload, () => {
    startedAt = performance.now();
    payload.port.postMessage({ type: 'started' } satisfies PortMessage);
  });
  return { result, runMs: warm && startedAt !== undefined ? performance.now() - startedAt : 0 };
}

async function runTool(payload: WorkerPayload, started: () => void): Promise<ToolResult> {
  const { port, task } = payload;
  const controller = new AbortController();
  port.on('message', (message: PortMessage) => {
    if (message?.type === 'abort') controller.abort(new Error(message.reason));
  });
  try {
    const mod = await load(payload.module);
    started();
    // No export: a warm-up (ToolPool.warm) only loads the module.
    if (!payload.exportName) return { content: [] };
    const run = mod[payload.exportName] as WorkerRun | undefined;
    if (typeof run !== 'function')
      return thrownResult(new Error(`${payload.module} has no function export "${payload.exportName}" for the tool ${task.tool}`));
    return await run(task, {
      signal: controller.signal,
      trackProcess: (pid) => port.postMessage({ type: 'process', pid } satisfies PortMessage),
    });
  } catch (error) {
    return thrownResult(error, `${task.tool} failed: `);
  } finally {
    port.close();
  }
}
