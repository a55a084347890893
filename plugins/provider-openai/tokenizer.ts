import { estimateTextTokens, type TextTokenCounter } from '../../core/kits/provider/index.js';
import { encodingOf } from './models.js';

const loaded = new Map<string, Promise<TextTokenCounter>>();

/**
 * The exact tokenizer of an OpenAI model (gpt-tokenizer, imported on first use: its tables are
 * large), or the estimate for models whose tokenizer is unknown.
 */
export function tokenCounterFor(model: string): Promise<TextTokenCounter> {
  const encoding = encodingOf(model);
  if (!encoding) return Promise.resolve(estimateTextTokens);
  let counter = loaded.get(encoding);
  if (!counter) {
    // Special-token text in a prompt is plain text to the API, so it is counted as such.
    const asText = { disallowedSpecial: new Set<string>() };
    counter =
      encoding === 'o200k_base'
        ? import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text, asText))
        : import('gpt-tokenizer/encoding/cl100k_base').then((m) => (text: string) => m.countTokens(text, asText));
    loaded.set(encoding, counter);
  }
  return counter;
}
