// The fake server's tokenizer: one token per 4 characters, so tests can compute every figure by hand.
import { createHash } from 'node:crypto';

/** Characters per token in the fake server's accounting. */
export const CHARS_PER_TOKEN = 4;

/** Tokens of `text` in the fake server's accounting (one per 4 characters, rounded up). */
export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Chains a hash: the hash of everything before plus `text`. */
export function chainHash(previous: string, text: string): string {
  return createHash('sha256').update(previous).update('\0').update(text).digest('hex');
}

/** A thinking block's signature: the server can tell whether it came back intact. */
export function signThinking(text: string): string {
  return Buffer.from(createHash('sha256').update('fake-llm-thinking:').update(text).digest()).toString('base64');
}
