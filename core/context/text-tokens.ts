// The kernel's one tokenizer-free text estimate: the context ledger calibrates it against reported
// usage, and providers without a tokenizer count requests with it (the provider kit re-exports it).

/** Letters and digits per token: words and identifiers merge into few tokens (measured: see docs/providers.md). */
const WORD_CHARS_PER_TOKEN = 4.5;
/** Punctuation splits finely, especially in code, JSON and hashes. */
const PUNCTUATION_CHARS_PER_TOKEN = 1.5;
/** Whitespace mostly merges into neighbouring tokens. */
const SPACE_CHARS_PER_TOKEN = 5;
/** Tokens per non-ASCII character (CJK and accented text split finely). */
const NON_ASCII_TOKENS_PER_CHAR = 0.9;
/** A flat charge per image; the providers charge by pixel size, which is not decoded here. */
export const IMAGE_TOKENS = 1600;

// The character classes, counted by what is left when a regular expression removes the rest: its
// native scan is ~2.5x faster than a loop over the characters in code that runs once (a start
// estimates ~40 tool schemas and the system prompt).
const NOT_WORD = /[^0-9A-Za-z]+/g;
const NOT_SPACE = /[^ \n\t\r]+/g;
const ASCII = /[\x00-\x7f]+/g;
const NOT_LOW_SURROGATE = /[^\udc00-\udfff]+/g;

/**
 * A tokenizer-free estimate of the tokens in `text`, by character class. It errs high on code and
 * prose (a budget that runs out early is safer than a request the model refuses); its accuracy
 * against a real tokenizer is measured in docs/providers.md.
 */
export function estimateTextTokens(text: string): number {
  const word = text.replace(NOT_WORD, '').length;
  const space = text.replace(NOT_SPACE, '').length;
  const nonAscii = text.replace(ASCII, '');
  // A surrogate pair counts once: its low half is not counted.
  const other = nonAscii.length - nonAscii.replace(NOT_LOW_SURROGATE, '').length;
  const punctuation = text.length - nonAscii.length - word - space;
  return Math.ceil(word / WORD_CHARS_PER_TOKEN + punctuation / PUNCTUATION_CHARS_PER_TOKEN + space / SPACE_CHARS_PER_TOKEN + other * NON_ASCII_TOKENS_PER_CHAR);
}
