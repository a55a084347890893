import { Worker } from 'node:worker_threads';
import type { Logger } from '../kernel/logger.js';
import type { ProjectFiles } from '../types/tools.js';
import { watchRules } from './ignore-rules.js';
import type { WatcherMessage } from './watcher-thread.js';

/** ProjectFiles plus the release the runtime calls on shutdown. */
export interface ProjectFilesHandle extends ProjectFiles {
  close(): Promise<void>;
}

/**
 * Change notifications for one project: our own writes are reported synchronously by the runtime;
 * everyone else's come from a chokidar watcher, started on first use in its own thread. A cache
 * may trust the absence of events only while `watch()` says the watcher is ready (not before, not
 * after an error).
 */
export function createProjectFiles(projectRoot: string, logger: Logger): ProjectFilesHandle {
  const listeners = new Set<(paths: string[]) => void>();
  const rules = watchRules(projectRoot);
  let thread: Worker | undefined;
  let ready = false;
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
    ready = false;
    logger.warn(`file watcher stopped, caches are off: ${why}`);
    notify(['*']);
    void thread?.terminate();
  };

  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed(paths) {
      if (paths.length) notify(paths);
    },
    watches: (path) => !rules.ignored(path, false),
    watch() {
      if (broken) return false;
      if (!thread) {
        thread = new Worker(new URL('./watcher-thread.js', import.meta.url), { workerData: { root: projectRoot } });
        thread.unref();
        thread.on('message', (message: WatcherMessage) => {
          if (message.type === 'ready') ready = true;
          else if (message.type === 'error') fail(message.message);
          else {
            if (message.rulesChanged) rules.reload();
            notify(message.paths);
          }
        });
        thread.on('error', (error) => fail(error.message));
        thread.on('exit', () => thread && fail('the watcher thread exited'));
      }
      return ready;
    },
    async close() {
      const current = thread;
      thread = undefined;
      ready = false;
      await current?.terminate();
    },
  };
}
