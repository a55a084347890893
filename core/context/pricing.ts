import type { Usage } from '../types/messages.js';

/** A model's published prices in US dollars per million tokens. */
export interface ModelPrice {
  /** US dollars per million input tokens. */
  input: number;
  /** US dollars per million output tokens. */
  output: number;
  /** Input served from the prompt cache; default: the input price (no discount). */
  cacheRead?: number;
  /** Input written to the prompt cache; default: the input price (providers that cache for free). */
  cacheWrite?: number;
}

/** Prices by provider name, then by model (`*` matches any run of characters: `claude-sonnet-4*`). */
export type PriceTable = Record<string, Record<string, ModelPrice>>;

function globMatches(pattern: string, model: string): boolean {
  const escaped = pattern.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(model);
}

/** The price of `model` at `provider`: an exact entry, else the longest matching pattern. */
export function findPrice(table: PriceTable | undefined, provider: string, model: string): ModelPrice | undefined {
  const models = table?.[provider];
  if (!models) return undefined;
  if (models[model]) return models[model];
  let best: string | undefined;
  for (const pattern of Object.keys(models))
    if (pattern.includes('*') && globMatches(pattern, model) && (!best || pattern.length > best.length)) best = pattern;
  return best ? models[best] : undefined;
}

/** What `usage` cost at `price`, in US dollars. */
export function costUsd(usage: Usage, price: ModelPrice): number {
  const perToken = 1e-6;
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * (price.cacheRead ?? price.input) +
      usage.cacheWriteTokens * (price.cacheWrite ?? price.input)) *
    perToken
  );
}
