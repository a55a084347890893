// The fake server's tokenizer: one token per 4 characters, so tests can compute every figure by hand.
import { createHash } from 'node:crypto';

/** Characters per token in the fake server's accounting. */
export const CHARS_PER_TOKEN = 4;

/** @param {string} text */
export function countTokens(text) {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/**
 * JSON with object keys sorted, so equal values always give equal text.
 * @param {unknown} value
 */
export function stableJson(value) {
  return JSON.stringify(value, (_key, v) => {
    if (v && typeof v === 'object' && !Array.isArray(v))
      return Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]]));
    return v;
  });
}

/**
 * Chains a hash: the hash of everything before plus `text`.
 * @param {string} previous @param {string} text
 */
export function chainHash(previous, text) {
  return createHash('sha256').update(previous).update('\0').update(text).digest('hex');
}

/** @param {string} text  A thinking block's signature: the server can tell whether it came back intact. */
export function signThinking(text) {
  return Buffer.from(createHash('sha256').update('fake-llm-thinking:').update(text).digest()).toString('base64');
}
