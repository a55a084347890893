/**
 * The file watcher's own thread. It watches only what the main thread asks for: a folder with
 * everything under it (a cached search read it) or one folder's own entries (a cached file lives
 * there; watching the folder, not the file, catches editors that replace a file by renaming onto
 * it). Each watch has its own chokidar instance, so each has its own `ready`; a big folder's set-up
 * walks the tree here, never on the main thread (measured: 140 ms event-loop delay on 50,000 files).
 * Changes go to the main thread in small batches.
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { watch, type FSWatcher } from 'chokidar';
import { watchRules } from './ignore-rules.js';

/** A watch the main thread asks for: `deep` covers everything under `folder`, otherwise its own entries. */
export interface WatchRequest {
  type: 'watch';
  folder: string;
  deep: boolean;
}

/** Messages from the watcher thread (`ready` names the request it answers). */
export type WatcherMessage =
  | { type: 'change'; paths: string[]; rulesChanged?: boolean }
  | { type: 'ready'; folder: string; deep: boolean }
  | { type: 'error'; message: string };

/** How long changes gather before they are sent (a checkout touches many files at once). */
const BATCH_MS = 10;

const root = (workerData as { root: string }).root;
const port = parentPort!;
const rules = watchRules(root);
const gitignore = join(root, '.gitignore');
const pending = new Set<string>();
const watchers: FSWatcher[] = [];
let rulesChanged = false;
let timer: NodeJS.Timeout | undefined;

function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  if (!pending.size) return;
  port.postMessage({ type: 'change', paths: [...pending], ...(rulesChanged ? { rulesChanged } : {}) } satisfies WatcherMessage);
  pending.clear();
  rulesChanged = false;
}

function start({ folder, deep }: WatchRequest): void {
  const watcher = watch(folder, {
    ignoreInitial: true,
    ignored: (path, stats) => rules.ignored(path, stats ? stats.isDirectory() : undefined),
    ...(deep ? {} : { depth: 0 }),
  });
  watchers.push(watcher);
  watcher.on('all', (_event, path) => {
    if (path === gitignore) {
      rules.reload();
      rulesChanged = true;
      pending.add('*');
    } else pending.add(path);
    timer ??= setTimeout(flush, BATCH_MS);
  });
  watcher.on('ready', () => {
    // Changes seen during set-up go out before `ready`, so no cache trusts a watch that missed them.
    flush();
    port.postMessage({ type: 'ready', folder, deep } satisfies WatcherMessage);
  });
  watcher.on('error', (error) => port.postMessage({ type: 'error', message: (error as Error)?.message ?? String(error) } satisfies WatcherMessage));
}

port.on('message', (message: WatchRequest | 'close') => {
  if (message === 'close') void Promise.all(watchers.map((watcher) => watcher.close())).then(() => port.close());
  else if (message?.type === 'watch') start(message);
});
