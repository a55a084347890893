import type { Message } from '../types/messages.js';
import type { ProviderRequest } from '../types/provider.js';

/** Counts the tokens of a piece of text (a real tokenizer, or the estimate below). */
export type TextTokenCounter = (text: string) => number;

/** Characters of ASCII text per token in the estimate (measured: see docs/providers.md). */
const ASCII_CHARS_PER_TOKEN = 3.6;
/** Tokens per non-ASCII character (CJK and accented text split finely). */
const NON_ASCII_TOKENS_PER_CHAR = 0.9;
/** A flat charge per image; the providers charge by pixel size, which is not decoded here. */
export const IMAGE_TOKENS = 1600;
/** Framing tokens per message and per tool definition (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
const TOOL_OVERHEAD = 8;

/**
 * A tokenizer-free estimate of the tokens in `text`. It errs high on purpose (a budget that runs
 * out early is safer than a request the model refuses); its accuracy is measured in docs/providers.md.
 */
export function estimateTextTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) ascii++;
    else if (code < 0xdc00 || code > 0xdfff) other++; // a surrogate pair counts once
  }
  return Math.ceil(ascii / ASCII_CHARS_PER_TOKEN + other * NON_ASCII_TOKENS_PER_CHAR);
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
