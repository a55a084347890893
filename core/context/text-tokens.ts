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

/**
 * A tokenizer-free estimate of the tokens in `text`, by character class. It errs high on code and
 * prose (a budget that runs out early is safer than a request the model refuses); its accuracy
 * against a real tokenizer is measured in docs/providers.md.
 */
export function estimateTextTokens(text: string): number {
  let word = 0;
  let punctuation = 0;
  let space = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) word++;
    else if (c === 32 || c === 10 || c === 9 || c === 13) space++;
    else if (c < 128) punctuation++;
    else if (c < 0xdc00 || c > 0xdfff) other++; // a surrogate pair counts once
  }
  return Math.ceil(word / WORD_CHARS_PER_TOKEN + punctuation / PUNCTUATION_CHARS_PER_TOKEN + space / SPACE_CHARS_PER_TOKEN + other * NON_ASCII_TOKENS_PER_CHAR);
}
