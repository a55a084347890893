import type { Message } from '../../types/messages.js';
import type { CacheHints } from '../../types/provider.js';

/**
 * Places prompt-cache breakpoints for a sequence of requests of one conversation.
 *
 * Anthropic reads a cached prefix only at a breakpoint or within ~20 content blocks before one.
 * One turn with a dozen parallel tool calls adds more blocks than that, so a single breakpoint on
 * the newest message would miss the previous request's entry and rewrite the whole history. The
 * planner therefore keeps a second, rolling breakpoint exactly where the previous request of the
 * same conversation ended (an exact hit however wide the last turn was), one on the newest
 * message (written for the next request), and one after system + tools (a hit even after the
 * history was rewritten). Three of the four breakpoints Anthropic allows.
 */
export interface CacheBreakpointPlanner {
  /**
   * Hints for `messages`, remembered as the conversation's latest request unless `remember` is false
   * (a one-off request such as a compaction summary). `newest: false` skips the breakpoint on the
   * newest message (nothing after this request will reuse it).
   */
  place(messages: readonly Message[], key?: string, options?: { remember?: boolean; newest?: boolean }): CacheHints;
  /** Forgets a conversation (its history was replaced). */
  forget(key?: string): void;
}

/** Length of the common prefix of two message lists, by identity (history messages are never mutated). */
export function commonPrefixLength(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Creates a planner; conversations are told apart by `key` (the agent id; the main agent by default). */
export function createCacheBreakpointPlanner(): CacheBreakpointPlanner {
  const previous = new Map<string, readonly Message[]>();
  const MAIN = '\u0000main';
  return {
    place(messages, key = MAIN, options = {}) {
      const indices: number[] = [];
      const before = previous.get(key);
      // The previous request's last message, when this request still starts with everything it sent.
      if (before?.length && commonPrefixLength(before, messages) === before.length && before.length < messages.length) indices.push(before.length - 1);
      if (messages.length && options.newest !== false && !indices.includes(messages.length - 1)) indices.push(messages.length - 1);
      if (options.remember !== false) previous.set(key, [...messages]);
      return { system: true, messages: indices };
    },
    forget(key = MAIN) {
      previous.delete(key);
    },
  };
}
