// Prompt-cache accounting that follows the providers' documented rules, so usage figures are meaningful.
import { chainHash, countTokens, stableJson, CHARS_PER_TOKEN } from './tokens.js';

/** Anthropic's documented limit of `cache_control` breakpoints per request. */
export const MAX_BREAKPOINTS = 4;
/** How many block boundaries before a breakpoint Anthropic checks for an earlier cached prefix. */
export const DEFAULT_LOOKBACK_BLOCKS = 20;
/** Anthropic's cache lifetime, refreshed by every read. */
export const DEFAULT_TTL_MS = 5 * 60_000;
/** OpenAI caches prompts from 1,024 tokens, in steps of 128. */
export const OPENAI_MIN_TOKENS = 1024;
export const OPENAI_STEP_TOKENS = 128;

/**
 * Anthropic's minimum cacheable prefix by model class; a shorter prefix is silently not cached.
 * @param {string} model @param {Record<string, number>} [overrides]
 */
export function minCacheableTokens(model, overrides = {}) {
  for (const [pattern, tokens] of Object.entries(overrides)) if (pattern !== 'default' && model.includes(pattern)) return tokens;
  if (/haiku/.test(model)) return overrides.default ?? 2048;
  return overrides.default ?? 1024;
}

/**
 * @typedef {{ tokens: number, hash: string, breakpoint: boolean, ttlMs?: number }} PrefixBlock
 * @typedef {{ inputTokens: number, cacheReadTokens: number, cacheWriteTokens: number }} CacheUsage
 */

/** A store of cached prefixes by hash, each with an expiry. */
class PrefixStore {
  constructor() {
    /** @type {Map<string, { expires: number, ttlMs: number }>} */
    this.entries = new Map();
  }
  /** @param {string} hash @param {number} now */
  live(hash, now) {
    const entry = this.entries.get(hash);
    if (entry && entry.expires > now) return entry;
    if (entry) this.entries.delete(hash);
    return undefined;
  }
  /** @param {string} hash @param {number} ttlMs @param {number} now */
  put(hash, ttlMs, now) {
    this.entries.set(hash, { expires: now + ttlMs, ttlMs });
  }
  clear() {
    this.entries.clear();
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
  /** @param {{ ttlMs?: number, minTokens?: Record<string, number>, lookbackBlocks?: number }} [options] */
  constructor(options = {}) {
    this.options = options;
    this.store = new PrefixStore();
  }

  /**
   * The request's blocks in prefix order, each hashed together with everything before it.
   * @param {any} body the /v1/messages request body @returns {PrefixBlock[]}
   */
  static blocks(body) {
    /** @type {{ value: any, cc: any }[]} */
    const raw = [];
    for (const tool of body.tools ?? []) raw.push({ value: { tool: strip(tool) }, cc: tool.cache_control });
    const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
    for (const block of system) raw.push({ value: { system: strip(block) }, cc: block.cache_control });
    body.messages.forEach((message) => {
      const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
      content.forEach((block, b) => raw.push({ value: { role: message.role, ...(b === 0 ? { start: true } : {}), block: strip(block) }, cc: block.cache_control }));
    });
    let hash = String(body.model);
    return raw.map(({ value, cc }) => {
      const text = stableJson(value);
      hash = chainHash(hash, text);
      return { tokens: countTokens(text), hash, breakpoint: !!cc, ttlMs: cc?.ttl === '1h' ? 3_600_000 : undefined };
    });
  }

  /** Total input tokens of a request body (what count_tokens answers). @param {any} body */
  static inputTokens(body) {
    return AnthropicPromptCache.blocks(body).reduce((sum, b) => sum + b.tokens, 0);
  }

  /**
   * Accounts one request: reads, writes, and the usage split. @param {any} body @param {number} [now]
   * @returns {CacheUsage}
   */
  account(body, now = Date.now()) {
    const blocks = AnthropicPromptCache.blocks(body);
    const cumulative = [];
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
        if (this.store.live(blocks[i].hash, now)) {
          if (cumulative[i] > read) [read, readAt] = [cumulative[i], i];
          break;
        }
      }
    }
    if (readAt >= 0) {
      const entry = /** @type {{ expires: number, ttlMs: number }} */ (this.store.live(blocks[readAt].hash, now));
      entry.expires = now + entry.ttlMs;
    }

    let written = 0;
    for (const b of breakpoints) {
      if (cumulative[b] < min || cumulative[b] <= read) continue;
      if (!this.store.live(blocks[b].hash, now)) this.store.put(blocks[b].hash, blocks[b].ttlMs ?? ttl, now);
      written = cumulative[b] - read;
    }
    return { inputTokens: sum - read - written, cacheReadTokens: read, cacheWriteTokens: written };
  }
}

/**
 * OpenAI's rules: automatic prefix caching of the whole prompt (tools, then messages) from 1,024
 * tokens, in 128-token steps: the longest step-aligned prefix seen before is read.
 */
export class OpenAIPromptCache {
  /** @param {{ ttlMs?: number }} [options] */
  constructor(options = {}) {
    this.options = options;
    this.store = new PrefixStore();
  }

  /** @param {any} body the /v1/chat/completions body */
  static promptText(body) {
    return stableJson(body.tools ?? []) + body.messages.map((m) => stableJson(m)).join('');
  }

  /** Total prompt tokens. @param {any} body */
  static inputTokens(body) {
    return countTokens(OpenAIPromptCache.promptText(body));
  }

  /** @param {any} body @param {number} [now] @returns {{ promptTokens: number, cachedTokens: number }} */
  account(body, now = Date.now()) {
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

/** @param {any} block */
function strip(block) {
  if (!block || typeof block !== 'object') return block;
  const { cache_control: _ignored, ...rest } = block;
  return rest;
}
