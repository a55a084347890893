import { LRUCache } from 'lru-cache';
import type { ProjectFiles, ToolContext } from '../../core/index.js';

/**
 * What the model has seen of each file (path → checksum of the version it read or wrote), per
 * session and agent. Kept here on the main thread, outside the message history, so a context
 * compaction can never make the agent forget it read a file — nor that it must read it again.
 * Also the last checksum seen on disk for each path (1000 paths, 5 minutes) where a ready watch
 * covers it, dropped when the file changes, so a stale edit is refused without a trip to a worker.
 */
export class ReadState {
  private readonly seen = new Map<string, Map<string, string>>();
  private readonly onDisk = new LRUCache<string, string>({ max: 1000, ttl: 5 * 60_000 });

  constructor(private readonly files: ProjectFiles) {
    files.onChange((paths) => {
      if (paths.includes('*')) this.onDisk.clear();
      else for (const path of paths) this.onDisk.delete(path);
    });
  }

  private agent(context: ToolContext): Map<string, string> {
    const key = `${context.sessionId ?? ''}\0${context.agentId ?? ''}`;
    let paths = this.seen.get(key);
    if (!paths) {
      paths = new Map();
      this.seen.set(key, paths);
    }
    return paths;
  }

  /** The checksum of the version of `path` this agent last saw, if any. */
  seenBy(context: ToolContext, path: string): string | undefined {
    return this.agent(context).get(path);
  }

  /** Records that this agent now knows `path` as `checksum` (after a Read, Write or Edit). */
  record(context: ToolContext, path: string, checksum: string): void {
    this.agent(context).set(path, checksum);
    // Kept only under a watch that is already ready (a repeated search started it). A record never
    // starts one: the early refusal only saves a worker trip, since Edit and Write re-check the file's
    // checksum in the worker, and a watcher thread costs a small task a fifth of its CPU and memory.
    if (this.files.watching([path])) this.onDisk.set(path, checksum);
  }

  /** The checksum on disk, when known for sure (the watcher is running and reported no change since). */
  knownOnDisk(path: string): string | undefined {
    return this.files.watching([path]) ? this.onDisk.get(path) : undefined;
  }
}
