import { LRUCache } from 'lru-cache';
import type { LockSet, ProjectFiles, ToolDefinition, ToolResult } from '../types/tools.js';
import { resourcesOverlap } from './locks.js';

interface Entry {
  reads: string[];
  result: ToolResult;
}

/** Taken when a call starts: the change count then, and whether watches already covered what it reads. */
export interface CacheMark {
  generation: number;
  watched: boolean;
}

/** How many call keys are remembered as seen once (a call is watched for from its second time). */
const SEEN_KEYS = 500;

/**
 * Results of read-only calls (Glob, Grep, ...) for tools that declare a `cache` policy, keyed by
 * input. An entry is dropped when a file under what it read changes, by our own write (at once)
 * or by anyone else (through the watcher). What a call read is watched only from the call's second
 * time (a one-off search over the project never pays for watching it), and its result is kept only
 * when that watch was ready before the call started, so no change can slip between read and watch.
 */
export class ResultCache {
  private readonly caches = new Map<string, LRUCache<string, Entry>>();
  /** Bumped on every change, so a result computed while files changed is not kept. */
  private generation = 0;
  /** Keys of calls made once, so a repeat can start watching what they read. */
  private readonly seen = new LRUCache<string, true>({ max: SEEN_KEYS });

  constructor(private readonly files: ProjectFiles) {
    files.onChange((paths) => this.invalidate(paths));
  }

  /** The cache key of a call, or undefined when the tool does not cache. */
  key(definition: ToolDefinition<any>, input: Record<string, unknown>, cwd: string): string | undefined {
    return definition.cache ? JSON.stringify([input, cwd]) : undefined;
  }

  get(definition: ToolDefinition<any>, key: string): ToolResult | undefined {
    const entry = this.caches.get(definition.name)?.get(key);
    return entry && this.files.watching(entry.reads) ? structuredClone(entry.result) : undefined;
  }

  /**
   * A mark to pass to `set`, taken when the call starts. A call seen before (same tool and key)
   * starts the watches of what it reads, so a later repeat can be kept.
   */
  mark(definition: ToolDefinition<any>, key: string | undefined, locks: LockSet): CacheMark {
    const cacheable = key !== undefined && cacheableReads(this.files, locks);
    const seenKey = `${definition.name}\0${key}`;
    let watched = false;
    if (cacheable) {
      if (this.seen.has(seenKey)) watched = this.files.watch(locks.reads);
      else this.seen.set(seenKey, true);
    }
    return { generation: this.generation, watched };
  }

  /** Keeps a successful result of a call that writes nothing, reads only watched paths, and saw no change while it ran. */
  set(definition: ToolDefinition<any>, key: string, locks: LockSet, result: ToolResult, mark: CacheMark): void {
    const policy = definition.cache;
    if (!policy || !mark.watched || mark.generation !== this.generation || result.isError || !cacheableReads(this.files, locks)) return;
    if (!this.files.watching(locks.reads)) return;
    let cache = this.caches.get(definition.name);
    if (!cache) {
      cache = new LRUCache<string, Entry>({ max: policy.max, ttl: policy.ttlMs });
      this.caches.set(definition.name, cache);
    }
    cache.set(key, { reads: [...locks.reads], result: structuredClone(result) });
  }

  /** Drops every entry that read something under `paths` (`*`: everything). */
  invalidate(paths: string[]): void {
    this.generation++;
    if (paths.includes('*')) {
      for (const cache of this.caches.values()) cache.clear();
      return;
    }
    for (const cache of this.caches.values())
      for (const [key, entry] of cache.entries())
        if (entry.reads.some((read) => paths.some((changed) => resourcesOverlap(read, changed)))) cache.delete(key);
  }
}

/** A call whose result may be kept: it writes nothing and reads only paths the watcher can report on. */
function cacheableReads(files: ProjectFiles, locks: LockSet): boolean {
  return !locks.writes.length && locks.reads.length > 0 && locks.reads.every((path) => path !== '*' && files.watches(path));
}
