import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { ToolResult, WorkerTask } from '../types/tools.js';
import type { PortMessage, WorkerPayload } from './worker.js';
import { runtimeUrl } from '../util/runtime-module.js';

/** How the worker pool is sized. */
export interface PoolOptions {
  /**
   * Most worker threads. Default: the cores, at least 2 and at most 4. A thread costs its start-up
   * (its tool's module graph) and memory, so a small task's eight parallel Reads share two threads
   * instead of starting four; piscina starts a thread only while work is queued and none is free.
   */
  maxThreads?: number;
  /** An idle worker exits after this long. Default 30 s. */
  idleTimeoutMs?: number;
}

/** One worker call: where to tell it to stop, and how to tear it down when it will not. */
export interface WorkerCall {
  result: Promise<ToolResult>;
  /** Asks the tool to stop (its `signal` aborts); it may still return a result. */
  requestStop(reason: string): void;
  /** Terminates the worker thread and kills the process groups the tool registered. */
  terminate(): void;
}

/**
 * The single piscina choke point. The pool is created on the first worker call, never at import
 * or apply, and destroyed on shutdown; piscina replaces a worker that dies.
 */
export class ToolPool {
  private pool: Promise<Piscina> | undefined;
  /** The created pool, for the synchronous thread count. */
  private created: Piscina | undefined;

  constructor(private readonly options: PoolOptions = {}) {}

  /** Number of live worker threads (0 before the first call). */
  get threads(): number {
    return this.created?.threads.length ?? 0;
  }

  /** Starts one call in a worker. */
  run(module: string, exportName: string, task: WorkerTask): WorkerCall {
    const { port1, port2 } = new MessageChannel();
    const processes = new Set<number>();
    port1.on('message', (message: PortMessage) => {
      if (message?.type === 'process' && Number.isInteger(message.pid)) processes.add(message.pid);
    });
    const hard = new AbortController();
    const payload: WorkerPayload = { module, exportName, task, port: port2 };
    const result = this.ensure()
      .then((pool) => pool.run(payload, { transferList: [port2], signal: hard.signal }) as Promise<ToolResult>)
      .finally(() => port1.close());
    return {
      result,
      // The port buffers the message until the worker starts listening.
      requestStop: (reason) => port1.postMessage({ type: 'abort', reason } satisfies PortMessage),
      terminate: () => {
        hard.abort();
        for (const pid of processes) killGroup(pid);
      },
    };
  }

  /** Destroys the pool (running tasks are terminated). A later call would make a new one. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    const created = await pool;
    if (this.created === created) this.created = undefined;
    await created?.destroy();
  }

  // piscina is imported on the first worker call: a run that never uses a worker tool (`--help`, a
  // chat with no file access) does not pay for loading it.
  private ensure(): Promise<Piscina> {
    this.pool ??= import('piscina').then(({ Piscina }) => {
      const maxThreads = this.options.maxThreads ?? defaultMaxThreads();
      return (this.created = new Piscina({
        filename: runtimeUrl(new URL('./worker.js', import.meta.url).href),
        minThreads: 1,
        maxThreads,
        idleTimeout: this.options.idleTimeoutMs ?? 30_000,
        // `sync` hands tasks over fastest (measured: 'async' made 8 parallel 1 MB Reads 7x slower);
        // a task's own event loop still turns while it runs.
        atomics: 'sync',
      }));
    });
    return this.pool;
  }
}

/** The default pool size: the cores, at least 2 (one slow tool never blocks the rest), at most 4. */
export function defaultMaxThreads(): number {
  return Math.min(4, Math.max(2, availableParallelism()));
}

/** Kills a process group (its leader's pid) without caring whether it is still alive. */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    if (process.platform === 'win32') process.kill(pid, signal);
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
