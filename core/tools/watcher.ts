import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { Logger } from '../kernel/logger.js';
import type { ProjectFiles } from '../types/tools.js';
import { watchRules } from './ignore-rules.js';
import { isInside } from './paths.js';
import type { WatcherMessage, WatchRequest } from './watcher-thread.js';

/** ProjectFiles plus the release the runtime calls on shutdown. */
export interface ProjectFilesHandle extends ProjectFiles {
  close(): Promise<void>;
}

interface Watch {
  folder: string;
  deep: boolean;
  ready: boolean;
}

/**
 * Change notifications for one project: our own writes are reported synchronously by the runtime;
 * everyone else's come from chokidar in a thread of its own, which watches only what a cache asked
 * for (a file's folder, a searched folder's tree) and starts with the first such request. A cache
 * may trust the absence of events for a path only while `watch` says a watch covering it is ready
 * (not before, not after an error).
 */
export function createProjectFiles(projectRoot: string, logger: Logger): ProjectFilesHandle {
  const listeners = new Set<(paths: string[]) => void>();
  const rules = watchRules(projectRoot);
  const watches = new Map<string, Watch>();
  let thread: Worker | undefined;
  let broken = false;

  const notify = (paths: string[]) => {
    for (const listener of listeners) {
      try {
        listener(paths);
      } catch (error) {
        logger.warn(`a file-change listener failed: ${(error as Error)?.message ?? error}`);
      }
    }
  };
  // Without a working watcher no cache can know about outside changes: stop trusting them.
  const fail = (why: string) => {
    if (broken) return;
    broken = true;
    for (const watch of watches.values()) watch.ready = false;
    logger.warn(`file watcher stopped, caches are off: ${why}`);
    notify(['*']);
    void thread?.terminate();
  };
  const startThread = (): Worker => {
    // node:worker_threads loads with the first watcher thread, not with the kernel.
    const worker = new (process.getBuiltinModule('node:worker_threads').Worker)(new URL('./watcher-thread.js', import.meta.url), { workerData: { root: projectRoot } });
    worker.unref();
    worker.on('message', (message: WatcherMessage) => {
      if (message.type === 'ready') {
        const watch = watches.get(keyOf(message.folder, message.deep));
        if (watch && !broken) watch.ready = true;
      } else if (message.type === 'error') fail(message.message);
      else {
        if (message.rulesChanged) rules.reload();
        notify(message.paths);
      }
    });
    worker.on('error', (error) => fail(error.message));
    worker.on('exit', () => thread && fail('the watcher thread exited'));
    return worker;
  };
  /** The watch a path needs: a folder's whole tree, or a file's folder (its own entries). */
  const needed = (path: string): WatchRequest | undefined => {
    if (rules.ignored(path, false)) return undefined;
    try {
      return statSync(path).isDirectory() ? { type: 'watch', folder: path, deep: true } : { type: 'watch', folder: dirname(path), deep: false };
    } catch {
      return undefined; // missing or unreadable: nothing to trust
    }
  };
  const covers = (watch: Watch, request: WatchRequest) =>
    watch.deep ? isInside(request.folder, watch.folder) : !request.deep && request.folder === watch.folder;
  const coveredBy = (request: WatchRequest, onlyReady: boolean) => [...watches.values()].some((watch) => (watch.ready || !onlyReady) && covers(watch, request));
  const watching = (paths: string[]) =>
    !broken &&
    paths.every((path) => {
      const request = needed(path);
      return request !== undefined && coveredBy(request, true);
    });

  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed(paths) {
      if (paths.length) notify(paths);
    },
    watches: (path) => !rules.ignored(path, false),
    watching,
    watch(paths) {
      if (broken) return false;
      for (const path of paths) {
        const request = needed(path);
        if (!request) return false;
        if (coveredBy(request, false)) continue;
        watches.set(keyOf(request.folder, request.deep), { folder: request.folder, deep: request.deep, ready: false });
        thread ??= startThread();
        thread.postMessage(request);
      }
      return watching(paths);
    },
    watched: () => [...watches.values()].map(({ folder, deep, ready }) => ({ folder, deep, ready })),
    async close() {
      const current = thread;
      thread = undefined;
      for (const watch of watches.values()) watch.ready = false;
      await current?.terminate();
    },
  };
}

const keyOf = (folder: string, deep: boolean) => `${deep ? 'deep' : 'own'}:${folder}`;
