import { availableParallelism } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { ToolResult, WorkerTask } from '../types/tools.js';
import { GrowthPolicy, type PoolLoad } from './pool-growth.js';
import type { PortMessage, WorkerOutcome, WorkerPayload } from './worker.js';
import { poolEntryUrl } from '../util/runtime-module.js';
import runTask from './worker.js';

/** How the worker pool is sized. */
export interface PoolOptions {
  /**
   * Most worker threads. Default: the cores, at least 2 and at most 4. A thread costs its start-up
   * (its tool's module graph) and memory, so the pool grows only when parallel work is really
   * waiting: it hands piscina one call at a time, and one more (up to this) only once queued calls
   * have waited GROWTH_GRACE_MS behind calls that were all running in their workers (the rules:
   * pool-growth.ts). A batch of quick Reads shares one thread; a long Bash or Grep holds queued
   * work back by at most the grace plus a thread start. A thread that exits takes its slot with it.
   */
  maxThreads?: number;
  /** An idle worker exits after this long, the last one too. Default 30 s. */
  idleTimeoutMs?: number;
}

/** One worker call: where to tell it to stop, and how to tear it down when it will not. */
export interface WorkerCall {
  /**
   * The tool's result. Rejects (an AbortError) when the call is stopped or terminated before a
   * worker took it, or when the pool closes first, as piscina rejects a call it terminates.
   */
  result: Promise<ToolResult>;
  /** Asks the tool to stop (its `signal` aborts); it may still return a result. A call still queued never starts. */
  requestStop(reason: string): void;
  /** Terminates the worker thread and kills the process groups the tool registered. */
  terminate(): void;
}

/** A call between `run` and its result. */
interface PoolCall {
  payload: WorkerPayload;
  /** Our end of the call's port; the other end travels with the payload. */
  port: MessagePort;
  /** Aborting it makes piscina terminate the call's worker. */
  hard: AbortController;
  /** When the worker said it runs the tool (its module loaded), on this thread's clock. */
  startedAt: number | undefined;
  resolve(result: ToolResult): void;
  reject(error: Error): void;
}

/**
 * The single piscina choke point. The pool is created on the first worker call, never at import
 * or apply, and destroyed on shutdown; piscina replaces a worker that dies. Calls wait in this
 * class's queue until the growth policy gives them a slot, so piscina starts a thread only when
 * the policy says parallel work is waiting.
 */
export class ToolPool {
  private pool: Promise<Piscina> | undefined;
  /** The created pool, for the synchronous thread count. */
  private created: Piscina | undefined;
  /** Calls waiting for a slot, in call order. */
  private readonly queue: PoolCall[] = [];
  /** Calls handed to piscina and not settled. */
  private readonly dispatched = new Set<PoolCall>();
  /** Thread ids of the workers that finished booting and have not exited. */
  private readonly ready = new Set<number>();
  private readonly growth: GrowthPolicy;

  constructor(private readonly options: PoolOptions = {}) {
    this.growth = new GrowthPolicy(
      options.maxThreads ?? defaultMaxThreads(),
      () => this.load(),
      () => this.pump(),
    );
  }

  /** Number of live worker threads (0 before the first call). */
  get threads(): number {
    return this.created?.threads.length ?? 0;
  }

  /**
   * Boots a thread and loads `module` in it ahead of a call the model is still streaming (a thread
   * takes ~100 ms to start): a call naming no export. Nothing when a thread is live or calls are under way.
   */
  warm(module: string | undefined): void {
    if (!module || this.threads > 0 || this.queue.length > 0 || this.dispatched.size > 0) return;
    this.run(module, '', {} as WorkerTask).result.catch(() => undefined);
  }

  /** Starts one call in a worker, or queues it until a slot is free; `inline`: runs it on this thread (ToolDefinition.inline). */
  run(module: string, exportName: string, task: WorkerTask, inline = false): WorkerCall {
    // The global MessageChannel: node:worker_threads whole is not loaded for it.
    const { port1, port2 } = new MessageChannel();
    const processes = new Set<number>();
    let call!: PoolCall;
    const settled = new Promise<ToolResult>((resolve, reject) => {
      call = { payload: { module, exportName, task, port: port2 }, port: port1, hard: new AbortController(), startedAt: undefined, resolve, reject };
    });
    port1.on('message', (message: PortMessage) => {
      if (message?.type === 'process' && Number.isInteger(message.pid)) processes.add(message.pid);
      else if (message?.type === 'started' && this.dispatched.has(call)) {
        call.startedAt = performance.now();
        this.growth.observe();
      }
    });
    const result = settled.finally(() => [port1, port2].forEach((port) => port.close()));
    if (inline) runTask(call.payload).then((outcome) => call.resolve(outcome.result), call.reject);
    else {
      this.queue.push(call);
      this.ensure().then(() => this.pump(), (error: Error) => this.unqueue(call, error));
    }
    return {
      result,
      requestStop: (reason) => {
        if (this.unqueue(call, stoppedBeforeStart(reason))) return;
        // The port buffers the message until the worker starts listening.
        port1.postMessage({ type: 'abort', reason } satisfies PortMessage);
      },
      terminate: () => {
        if (this.unqueue(call, stoppedBeforeStart('terminated'))) return;
        call.hard.abort();
        for (const pid of processes) killGroup(pid);
      },
    };
  }

  /** Destroys the pool (running calls are terminated, queued ones rejected). A later call would make a new one. */
  async close(): Promise<void> {
    for (const call of this.queue.splice(0)) call.reject(stoppedBeforeStart('the tool pool shut down'));
    this.dispatched.clear();
    this.ready.clear();
    this.growth.close();
    const pool = this.pool;
    this.pool = undefined;
    const created = await pool?.catch(() => undefined);
    if (this.created === created) this.created = undefined;
    await created?.destroy();
  }

  /** Hands queued calls to piscina while slots are free. */
  private pump(): void {
    const pool = this.created;
    if (!pool) return;
    while (this.canDispatch(pool)) {
      const call = this.queue.shift()!;
      this.dispatched.add(call);
      (pool.run(call.payload, { transferList: [call.payload.port], signal: call.hard.signal }) as Promise<WorkerOutcome>)
        .then((outcome) => {
          this.growth.finished(outcome.runMs);
          call.resolve(outcome.result);
        }, call.reject)
        .finally(() => {
          if (this.dispatched.delete(call)) this.pump();
        });
    }
    this.growth.observe();
  }

  /**
   * A slot is free, and a booted thread is free or the policy allows one more thread than there
   * are: piscina starts a thread for any call no booted thread can take at once, so a call handed
   * over while the new thread boots would start yet another.
   */
  private canDispatch(pool: Piscina): boolean {
    if (this.queue.length === 0 || this.dispatched.size >= this.growth.slots) return false;
    return this.dispatched.size < this.ready.size || pool.threads.length < this.growth.slots;
  }

  private load(): PoolLoad {
    let starting = 0;
    let lastStartedAt: number | undefined;
    for (const { startedAt } of this.dispatched)
      if (startedAt === undefined) starting++;
      else lastStartedAt = Math.max(lastStartedAt ?? startedAt, startedAt);
    return { queued: this.queue.length, dispatched: this.dispatched.size, starting, lastStartedAt };
  }

  private forgetExited(pool: Piscina): void {
    if (this.created !== pool) return;
    const live = new Set(pool.threads.map((thread) => thread.threadId));
    for (const id of this.ready) if (!live.has(id)) this.ready.delete(id);
    this.pump();
  }

  /** Rejects a call that is still queued; false when it already went to a worker (or settled). */
  private unqueue(call: PoolCall, error: Error): boolean {
    const index = this.queue.indexOf(call);
    if (index < 0) return false;
    this.queue.splice(index, 1);
    call.reject(error);
    this.growth.observe();
    return true;
  }

  // piscina is imported on the first worker call: a run that never uses a worker tool (`--help`, a
  // chat with no file access) does not pay for loading it.
  private ensure(): Promise<Piscina> {
    this.pool ??= import('piscina').then(({ Piscina }) => {
      const maxThreads = this.options.maxThreads ?? defaultMaxThreads();
      const pool = new Piscina({
        filename: poolEntryUrl(new URL('./worker-entry.cjs', import.meta.url).href),
        // Threads start only for calls (see canDispatch), none to replace a terminated one while the
        // next call is already waiting; the last idle thread retires too.
        minThreads: 0,
        maxThreads,
        idleTimeout: this.options.idleTimeoutMs ?? 30_000,
        // `sync` hands tasks over fastest (measured: 'async' made 8 parallel 1 MB Reads 7x slower);
        // a task's own event loop still turns while it runs.
        atomics: 'sync',
      });
      // A closed pool's events must not touch the state of the pool that may replace it.
      pool.on('workerCreate', (worker: { id: number }) => {
        if (this.created !== pool) return;
        this.ready.add(worker.id);
        this.pump();
      });
      pool.on('workerDestroy', () => {
        if (this.created !== pool) return;
        this.growth.threadGone();
        // A crashed worker's id may already read -1; piscina drops it from its list right after this event.
        queueMicrotask(() => this.forgetExited(pool));
      });
      return (this.created = pool);
    });
    return this.pool;
  }
}

/** What a call stopped before a worker took it rejects with (the runtime reports it as stopped). */
const stoppedBeforeStart = (reason: string): Error => Object.assign(new Error(`stopped before a worker took the call (${reason})`), { name: 'AbortError' });

/** The default pool size: the cores, at least 2 (one slow tool never blocks the rest), at most 4. */
export function defaultMaxThreads(): number {
  return Math.min(4, Math.max(2, availableParallelism()));
}

/** Kills a process group (its leader's pid) without caring whether it is still alive. */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}
