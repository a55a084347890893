import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import ignore, { type Ignore } from 'ignore';
import type { Logger } from '../logger.js';
import type { ProjectFiles } from '../types/tools.js';
import { isInside } from './paths.js';

/** Folders never watched: too busy (dependencies) or not the user's files (git's own). */
const ALWAYS_IGNORED = new Set(['.git', 'node_modules']);

/** ProjectFiles plus the release the runtime calls on shutdown. */
export interface ProjectFilesHandle extends ProjectFiles {
  close(): Promise<void>;
}

/**
 * Change notifications for one project: our own writes are reported synchronously by the runtime;
 * everyone else's come from a chokidar watcher started on first use. A cache may trust the
 * absence of events only while `watch()` says the watcher is ready (not before, not after an error).
 */
export function createProjectFiles(projectRoot: string, logger: Logger): ProjectFilesHandle {
  const listeners = new Set<(paths: string[]) => void>();
  let watcher: FSWatcher | undefined;
  let ready = false;
  let broken = false;
  let rules = loadRules(projectRoot);

  const notify = (paths: string[]) => {
    for (const listener of listeners) {
      try {
        listener(paths);
      } catch (error) {
        logger.warn(`a file-change listener failed: ${(error as Error)?.message ?? error}`);
      }
    }
  };
  const ignored = (path: string, isDirectory?: boolean): boolean => {
    if (!isInside(path, projectRoot)) return true;
    const rel = relative(projectRoot, path);
    if (!rel) return false;
    if (rel.split(sep).some((part) => ALWAYS_IGNORED.has(part))) return true;
    const posix = rel.split(sep).join('/');
    return rules.ignores(posix) || (isDirectory !== false && rules.ignores(`${posix}/`));
  };

  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    changed(paths) {
      if (paths.length) notify(paths);
    },
    watches: (path) => !ignored(path, false),
    watch() {
      if (broken) return false;
      if (!watcher) {
        watcher = watch(projectRoot, {
          ignoreInitial: true,
          persistent: false,
          ignored: (path, stats) => ignored(path, stats ? stats.isDirectory() : undefined),
        });
        watcher.on('all', (_event, path) => {
          if (path === join(projectRoot, '.gitignore')) {
            rules = loadRules(projectRoot);
            notify(['*']);
          } else notify([path]);
        });
        watcher.on('ready', () => (ready = true));
        watcher.on('error', (error) => {
          // Without a working watcher no cache can know about outside changes: stop trusting them.
          broken = true;
          ready = false;
          logger.warn(`file watcher failed, caches are off: ${(error as Error)?.message ?? error}`);
          notify(['*']);
          void watcher?.close();
        });
      }
      return ready;
    },
    async close() {
      ready = false;
      const current = watcher;
      watcher = undefined;
      await current?.close();
    },
  };
}

/** The project's root .gitignore rules (nested ones are not watched for). */
function loadRules(projectRoot: string): Ignore {
  const rules = ignore();
  try {
    rules.add(readFileSync(join(projectRoot, '.gitignore'), 'utf8'));
  } catch {
    // No .gitignore: only the fixed folders are skipped.
  }
  return rules;
}
