import type { Message } from '../../types/messages.js';
import type { ProviderRequest } from '../../types/provider.js';
import { estimateTextTokens, IMAGE_TOKENS } from '../../context/text-tokens.js';

/** Counts the tokens of a piece of text (a real tokenizer, or `estimateTextTokens`). */
export type TextTokenCounter = (text: string) => number;

/** Framing tokens per message and per tool definition (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
const TOOL_OVERHEAD = 8;

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
