import type { Message } from '../../types/messages.js';
import type { ProviderRequest } from '../../types/provider.js';

/** Counts the tokens of a piece of text (a real tokenizer, or the estimate below). */
export type TextTokenCounter = (text: string) => number;

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
/** Framing tokens per message and per tool definition (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
const TOOL_OVERHEAD = 8;

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

function messageTokens(message: Message, count: TextTokenCounter): number {
  let tokens = MESSAGE_OVERHEAD;
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        tokens += count(part.text);
        break;
      case 'image':
        tokens += IMAGE_TOKENS;
        break;
      case 'thinking':
        tokens += part.redacted ? count(part.data ?? '') : count(part.text);
        break;
      case 'tool_call':
        tokens += count(part.name) + count(JSON.stringify(part.input)) + MESSAGE_OVERHEAD;
        break;
      case 'tool_result':
        tokens += MESSAGE_OVERHEAD;
        for (const inner of part.content) tokens += inner.type === 'text' ? count(inner.text) : IMAGE_TOKENS;
        break;
    }
  }
  return tokens;
}

/** The input tokens of a request: system, tools and messages, counted with `count` (default: the estimate). */
export function countRequestTokens(
  request: Pick<ProviderRequest, 'system' | 'messages' | 'tools'>,
  count: TextTokenCounter = estimateTextTokens,
): number {
  let tokens = 0;
  for (const section of request.system) tokens += count(section.text) + 1;
  for (const tool of request.tools) tokens += TOOL_OVERHEAD + count(tool.name) + count(tool.description) + count(JSON.stringify(tool.inputSchema));
  for (const message of request.messages) tokens += messageTokens(message, count);
  return tokens;
}
