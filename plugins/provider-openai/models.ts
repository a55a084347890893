/** The model used when the config names none. */
export const DEFAULT_MODEL = 'gpt-4.1';
/** Output tokens per reply when `provider.maxTokens` is not set. */
export const DEFAULT_MAX_TOKENS = 8192;
/** Window assumed for models this table does not know (local servers): set provider.contextWindow to the real one. */
export const UNKNOWN_MODEL_WINDOW = 32_768;

/** Context windows by model-name prefix, most specific first. */
const WINDOWS: [RegExp, number][] = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^(o1|o3|o4)(-|$)/, 200_000],
  [/^(gpt-4o|chatgpt-4o|gpt-4-turbo|gpt-4\.5)/, 128_000],
  [/^gpt-4(-|$)/, 8192],
  [/^gpt-3\.5-turbo/, 16_385],
];

/** The context window of a model; `configured` (provider.contextWindow) wins. */
export function contextWindowOf(model: string, configured?: number): number {
  if (configured) return configured;
  return WINDOWS.find(([pattern]) => pattern.test(model))?.[1] ?? UNKNOWN_MODEL_WINDOW;
}

/** The tokenizer encoding of an OpenAI model, or undefined for models whose tokenizer is unknown (local servers). */
export function encodingOf(model: string): 'o200k_base' | 'cl100k_base' | undefined {
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|gpt-oss)/.test(model)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(model)) return 'cl100k_base';
  return undefined;
}
