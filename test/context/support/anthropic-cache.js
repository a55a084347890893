// Anthropic's prompt-cache rules, applied to the internal request format, so scripted sessions
// report realistic cache reads and writes (used by test/context and bench/context.mjs until the
// wire-compatible fake server is available to them).
//
// Rules modelled: the prompt is tools → system → messages, content block by content block. A
// `cache_control` breakpoint goes after the last system block (request.cache.system) and after the
// last block of each message index in request.cache.messages; at most 4. For each breakpoint the
// cache is looked up at that block and at up to `lookback` block boundaries before it; the longest
// live prefix found is read (its lifetime refreshed). Every breakpoint whose prefix is at least
// `minTokens` long is then written; tokens between the read point and the last written breakpoint
// are billed as cache writes, the rest as plain input. Entries live `ttlMs` from their last use.
import { createHash } from 'node:crypto';

export const MAX_BREAKPOINTS = 4;

/** Tokens of a serialized block (4 characters per token, like the fake server). @param {string} text */
export const blockTokens = (text) => Math.max(1, Math.ceil(text.length / 4));

/** @param {unknown} value @returns {string} */
function stable(value) {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .filter((k) => k !== 'meta')
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable(/** @type {any} */ (value)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The request's blocks in prefix order with their breakpoints.
 * @param {import('../../../dist/core/index.js').ProviderRequest} request
 */
export function requestBlocks(request) {
  /** @type {{ text: string, breakpoint: boolean }[]} */
  const blocks = [];
  for (const tool of request.tools) blocks.push({ text: stable({ tool }), breakpoint: false });
  for (const section of request.system) blocks.push({ text: stable({ system: section.text }), breakpoint: false });
  if (request.cache?.system && blocks.length) blocks[blocks.length - 1].breakpoint = true;
  request.messages.forEach((message, index) => {
    message.content.forEach((part, b) => blocks.push({ text: stable({ role: message.role, first: b === 0, part }), breakpoint: false }));
    if (request.cache?.messages.includes(index) && message.content.length) blocks[blocks.length - 1].breakpoint = true;
  });
  return blocks;
}

/** A prompt cache following Anthropic's rules. */
export class AnthropicCacheSim {
  /** @param {{ lookback?: number, minTokens?: number, ttlMs?: number, now?: () => number }} [options] */
  constructor(options = {}) {
    this.lookback = options.lookback ?? 20;
    this.minTokens = options.minTokens ?? 1024;
    this.ttlMs = options.ttlMs ?? 300_000;
    this.now = options.now ?? Date.now;
    /** @type {Map<string, number>} prefix hash → expiry */
    this.entries = new Map();
  }

  /**
   * Usage split of one request; throws like the API on more than 4 breakpoints.
   * @param {import('../../../dist/core/index.js').ProviderRequest} request
   */
  account(request) {
    const blocks = requestBlocks(request);
    const now = this.now();
    const hashes = [];
    const cumulative = [];
    let hash = createHash('sha256').update(request.model).digest('hex');
    let total = 0;
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.text).digest('hex');
      hashes.push(hash);
      cumulative.push((total += blockTokens(block.text)));
    }
    const breakpoints = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (breakpoints.length > MAX_BREAKPOINTS) throw new Error(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`);
    const live = (i) => (this.entries.get(hashes[i]) ?? 0) > now;
    let read = 0;
    let readAt = -1;
    for (const b of breakpoints)
      for (let i = b; i >= Math.max(0, b - this.lookback + 1); i--)
        if (live(i)) {
          if (cumulative[i] > read) [read, readAt] = [cumulative[i], i];
          break;
        }
    if (readAt >= 0) this.entries.set(hashes[readAt], now + this.ttlMs);
    let written = 0;
    for (const b of breakpoints) {
      if (cumulative[b] < this.minTokens || cumulative[b] <= read) continue;
      if (!live(b)) this.entries.set(hashes[b], now + this.ttlMs);
      written = cumulative[b] - read;
    }
    return { inputTokens: total - read - written, cacheReadTokens: read, cacheWriteTokens: written, total, blocks: blocks.length };
  }
}
