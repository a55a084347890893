import { LRUCache } from 'lru-cache';
import type { LockSet, ProjectFiles, ToolDefinition, ToolResult } from '../types/tools.js';
import { resourcesOverlap } from './locks.js';

interface Entry {
  reads: string[];
  result: ToolResult;
}

/**
 * Results of read-only calls (Glob, Grep, ...) for tools that declare a `cache` policy, keyed by
 * input. An entry is dropped when a file under what it read changes, by our own write (at once)
 * or by anyone else (through the watcher), and results are served only while the watcher is ready.
 */
export class ResultCache {
  private readonly caches = new Map<string, LRUCache<string, Entry>>();
  /** Bumped on every change, so a result computed while files changed is not kept. */
  private generation = 0;

  constructor(private readonly files: ProjectFiles) {
    files.onChange((paths) => this.invalidate(paths));
  }

  /** The cache key of a call, or undefined when the tool does not cache. */
  key(definition: ToolDefinition<any>, input: Record<string, unknown>, cwd: string): string | undefined {
    return definition.cache ? JSON.stringify([input, cwd]) : undefined;
  }

  get(definition: ToolDefinition<any>, key: string): ToolResult | undefined {
    if (!this.files.watch()) return undefined;
    const entry = this.caches.get(definition.name)?.get(key);
    return entry ? structuredClone(entry.result) : undefined;
  }

  /** A mark to pass to `set`: taken when the call starts. */
  mark(): number {
    return this.generation;
  }

  /** Keeps a successful result of a call that writes nothing, reads only watched paths, and saw no change while it ran. */
  set(definition: ToolDefinition<any>, key: string, locks: LockSet, result: ToolResult, mark: number): void {
    const policy = definition.cache;
    if (!policy || mark !== this.generation || result.isError || locks.writes.length || !locks.reads.length) return;
    if (locks.reads.some((path) => path === '*' || !this.files.watches(path))) return;
    if (!this.files.watch()) return;
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
