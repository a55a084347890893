/** The model used when the config names none. */
export const DEFAULT_MODEL = 'claude-sonnet-4-6';
/** Output tokens per reply when `provider.maxTokens` is not set. */
export const DEFAULT_MAX_TOKENS = 8192;

/** Every current Claude model has a 200k-token window (1M variants need a beta header: set provider.contextWindow). */
const CLAUDE_WINDOW = 200_000;

/** The context window of a model, or of an unknown model behind a compatible server. */
export function contextWindowOf(model: string, configured?: number): number {
  if (configured) return configured;
  return CLAUDE_WINDOW;
}
