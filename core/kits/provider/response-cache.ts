import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ProviderRequest, ProviderStreamEvent } from '../../types/provider.js';
import { stableJson } from '../../util/stable-json.js';

/** Size and lifetime of the response cache. */
export interface ResponseCacheOptions {
  /** Most responses kept. */
  max: number;
  /** How long a response stays valid. */
  ttlMs: number;
}

/** 100 responses for 10 minutes. */
export const DEFAULT_RESPONSE_CACHE: Readonly<ResponseCacheOptions> = Object.freeze({ max: 100, ttlMs: 10 * 60_000 });

/** Identical requests answered from memory: the recorded events of a complete earlier reply. */
export interface ResponseCache {
  /** The key of a request: provider identity plus everything that reaches the wire (message metadata does not). */
  keyFor(scope: string, request: ProviderRequest): string;
  /** The recorded events of an identical earlier request, if still cached. */
  get(key: string): ProviderStreamEvent[] | undefined;
  /** Stores a reply; replies with a tool call whose input was cut off are not worth replaying and are skipped. */
  set(key: string, events: ProviderStreamEvent[]): void;
  /** Responses cached. */
  readonly size: number;
}


function wireRequest(request: ProviderRequest): unknown {
  return {
    ...request,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    // Cache hints change cost, not the answer.
    cache: undefined,
  };
}

/** Creates a response cache on lru-cache. */
export function createResponseCache(options: ResponseCacheOptions = DEFAULT_RESPONSE_CACHE): ResponseCache {
  const cache = new LRUCache<string, ProviderStreamEvent[]>({ max: options.max, ttl: options.ttlMs });
  return {
    keyFor: (scope, request) => createHash('sha256').update(scope).update('\0').update(stableJson(wireRequest(request))).digest('hex'),
    get: (key) => cache.get(key),
    set(key, events) {
      const stop = events[events.length - 1];
      if (stop?.type !== 'stop' || stop.reason === 'error' || stop.reason === 'aborted') return;
      if (events.some((e) => e.type === 'tool_call_end' && e.inputError)) return;
      cache.set(key, events.filter((e) => e.type !== 'retry'));
    },
    get size() {
      return cache.size;
    },
  };
}

/**
 * Replays a cached reply for `key`, or streams `produce()` and records it for next time. A reply
 * that fails or is abandoned half-way is never stored.
 */
export async function* replayOrRecord(
  cache: ResponseCache | undefined,
  key: () => string,
  produce: () => AsyncIterable<ProviderStreamEvent>,
): AsyncGenerator<ProviderStreamEvent> {
  if (!cache) return yield* produce();
  const k = key();
  const hit = cache.get(k);
  if (hit) return yield* hit;
  const recorded: ProviderStreamEvent[] = [];
  for await (const event of produce()) {
    // A retry that discards a broken attempt discards its recording too.
    if (event.type === 'retry' && event.discard) recorded.length = 0;
    recorded.push(event);
    yield event;
  }
  cache.set(k, recorded);
}
