// Prompt-cache accounting that follows the providers' documented rules, so usage figures are meaningful.
import type { PromptCacheOptions } from './script.js';
import { stableJson } from '../../util/stable-json.js';
import { chainHash, countTokens, CHARS_PER_TOKEN } from './tokens.js';

/** Anthropic's documented limit of `cache_control` breakpoints per request. */
export const MAX_BREAKPOINTS = 4;
/** How many block boundaries before a breakpoint Anthropic checks for an earlier cached prefix. */
export const DEFAULT_LOOKBACK_BLOCKS = 20;
/** Anthropic's cache lifetime, refreshed by every read. */
export const DEFAULT_TTL_MS = 5 * 60_000;
/** OpenAI caches prompts from 1,024 tokens... */
export const OPENAI_MIN_TOKENS = 1024;
/** ...in steps of 128. */
export const OPENAI_STEP_TOKENS = 128;

/** A request body as JSON: the fake server checks it field by field, as the real APIs do. */
export type WireBody = any;

/** Anthropic's minimum cacheable prefix by model class; a shorter prefix is silently not cached. */
export function minCacheableTokens(model: string, overrides: Record<string, number> = {}): number {
  for (const [pattern, tokens] of Object.entries(overrides)) if (pattern !== 'default' && model.includes(pattern)) return tokens;
  if (/haiku/.test(model)) return overrides.default ?? 2048;
  return overrides.default ?? 1024;
}

/** One block of the cacheable prefix. */
interface PrefixBlock {
  tokens: number;
  hash: string;
  breakpoint: boolean;
  ttlMs?: number;
}

/** How a request's input tokens split between cache reads, cache writes and plain input. */
export interface CacheUsage {
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

interface PrefixEntry {
  expires: number;
  ttlMs: number;
}

/** A store of cached prefixes by hash, each with an expiry. */
class PrefixStore {
  private readonly entries = new Map<string, PrefixEntry>();

  live(hash: string, now: number): PrefixEntry | undefined {
    const entry = this.entries.get(hash);
    if (entry && entry.expires > now) return entry;
    if (entry) this.entries.delete(hash);
    return undefined;
  }

  put(hash: string, ttlMs: number, now: number): void {
    this.entries.set(hash, { expires: now + ttlMs, ttlMs });
  }
}

/**
 * Anthropic's rules: the prefix runs tools → system → messages, block by block. For each
 * breakpoint, the cache is checked at the breakpoint and at block boundaries up to the lookback
 * window before it; the longest live prefix found is read (and its TTL refreshed). Then every
 * breakpoint prefix at least the minimum length is written; the tokens from the read point to the
 * last such breakpoint are billed as cache writes, the rest as plain input.
 */
export class AnthropicPromptCache {
  private readonly store = new PrefixStore();

  constructor(private readonly options: PromptCacheOptions = {}) {}

  /** The request's blocks in prefix order, each hashed together with everything before it. */
  static blocks(body: WireBody): PrefixBlock[] {
    const raw: { value: unknown; cc: WireBody }[] = [];
    for (const tool of body.tools ?? []) raw.push({ value: { tool: strip(tool) }, cc: tool.cache_control });
    const system: WireBody[] = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
    for (const block of system) raw.push({ value: { system: strip(block) }, cc: block.cache_control });
    for (const message of body.messages as WireBody[]) {
      const content: WireBody[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
      content.forEach((block, b) => raw.push({ value: { role: message.role, ...(b === 0 ? { start: true } : {}), block: strip(block) }, cc: block.cache_control }));
    }
    let hash = String(body.model);
    return raw.map(({ value, cc }) => {
      const text = stableJson(value);
      hash = chainHash(hash, text);
      return { tokens: countTokens(text), hash, breakpoint: !!cc, ttlMs: cc?.ttl === '1h' ? 3_600_000 : undefined };
    });
  }

  /** Total input tokens of a request body (what count_tokens answers). */
  static inputTokens(body: WireBody): number {
    return AnthropicPromptCache.blocks(body).reduce((sum, b) => sum + b.tokens, 0);
  }

  /** Accounts one request: reads, writes, and the usage split. */
  account(body: WireBody, now = Date.now()): CacheUsage {
    const blocks = AnthropicPromptCache.blocks(body);
    const cumulative: number[] = [];
    let sum = 0;
    for (const block of blocks) cumulative.push((sum += block.tokens));
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    const lookback = this.options.lookbackBlocks ?? DEFAULT_LOOKBACK_BLOCKS;
    const ttl = this.options.ttlMs ?? DEFAULT_TTL_MS;
    const min = minCacheableTokens(String(body.model), this.options.minTokens);

    let read = 0;
    let readAt = -1;
    for (const b of breakpoints) {
      for (let i = b; i >= Math.max(0, b - lookback + 1); i--) {
        if (this.store.live(blocks[i]!.hash, now)) {
          if (cumulative[i]! > read) [read, readAt] = [cumulative[i]!, i];
          break;
        }
      }
    }
    if (readAt >= 0) {
      const entry = this.store.live(blocks[readAt]!.hash, now)!;
      entry.expires = now + entry.ttlMs;
    }

    let written = 0;
    for (const b of breakpoints) {
      if (cumulative[b]! < min || cumulative[b]! <= read) continue;
      if (!this.store.live(blocks[b]!.hash, now)) this.store.put(blocks[b]!.hash, blocks[b]!.ttlMs ?? ttl, now);
      written = cumulative[b]! - read;
    }
    return { inputTokens: sum - read - written, cacheReadTokens: read, cacheWriteTokens: written };
  }
}

/**
 * OpenAI's rules: automatic prefix caching of the whole prompt (tools, then messages) from 1,024
 * tokens, in 128-token steps: the longest step-aligned prefix seen before is read.
 */
export class OpenAIPromptCache {
  private readonly store = new PrefixStore();

  constructor(private readonly options: PromptCacheOptions = {}) {}

  /** The prompt as the cache sees it: tools, then every message. */
  static promptText(body: WireBody): string {
    return stableJson(body.tools ?? []) + (body.messages as WireBody[]).map((m) => stableJson(m)).join('');
  }

  /** Total prompt tokens. */
  static inputTokens(body: WireBody): number {
    return countTokens(OpenAIPromptCache.promptText(body));
  }

  /** Accounts one request: prompt tokens and how many of them were read from the cache. */
  account(body: WireBody, now = Date.now()): { promptTokens: number; cachedTokens: number } {
    const text = OpenAIPromptCache.promptText(body);
    const promptTokens = countTokens(text);
    const ttl = this.options.ttlMs ?? DEFAULT_TTL_MS;
    const step = OPENAI_STEP_TOKENS * CHARS_PER_TOKEN;
    let hash = String(body.model);
    let cachedTokens = 0;
    for (let end = step, tokens = OPENAI_STEP_TOKENS; end <= text.length; end += step, tokens += OPENAI_STEP_TOKENS) {
      hash = chainHash(hash, text.slice(end - step, end));
      if (tokens < OPENAI_MIN_TOKENS) continue;
      const entry = this.store.live(hash, now);
      if (entry) {
        cachedTokens = tokens;
        entry.expires = now + ttl;
      } else this.store.put(hash, ttl, now);
    }
    return { promptTokens, cachedTokens };
  }
}

function strip(block: WireBody): unknown {
  if (!block || typeof block !== 'object') return block;
  const { cache_control: _ignored, ...rest } = block;
  return rest;
}
