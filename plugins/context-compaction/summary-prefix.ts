import { isDeepStrictEqual } from 'node:util';
import type { CacheHints, ContextView, Message, SystemSection, ToolSpec } from '../../core/index.js';
import type { SentRequest } from '../../core/kits/context/index.js';

/** What a summary request puts before the history: system, tools, breakpoints and thinking, as the last turn request sent them. */
export interface SummaryPrefix {
  system: SystemSection[];
  tools: ToolSpec[];
  cache: CacheHints;
  /** Carried over: Anthropic drops its cached messages when the thinking budget changes. */
  thinkingBudget?: number;
  /** True when the last turn request of this process is reused. */
  reused: boolean;
}

/** How many leading messages two lists share, by identity or, after a copy, by content. */
function sharedLength(a: readonly Message[], b: readonly Message[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && (a[i] === b[i] || isDeepStrictEqual(a[i], b[i]))) i++;
  return i;
}

/**
 * The prefix of a summary request over `history`. The provider reads a cached prefix only up to a
 * breakpoint the earlier request wrote, with the same system and tools before it (what Claude Code
 * does: its summary request is the main loop's request plus one instruction). So the last turn
 * request's system, tools and breakpoints are reused wherever `history` still starts with its
 * messages; decorations it carried after its breakpoints (a plan reminder) are left out.
 * On a session resumed by this process (no turn request sent yet), one breakpoint on the newest
 * message finds the previous process's entry within the provider's lookback. Otherwise (the history
 * was rewritten since) only system and tools can be a read, and nothing new is written.
 */
export function summaryPrefix(view: ContextView, history: readonly Message[], last: SentRequest | undefined, resumed: boolean): SummaryPrefix {
  if (last && last.model === view.model) {
    const shared = sharedLength(last.messages, history);
    const breakpoints = (last.cache?.messages ?? []).filter((i) => i < shared);
    if (breakpoints.length)
      return {
        system: last.system as SystemSection[],
        tools: last.tools as ToolSpec[],
        cache: { system: last.cache?.system ?? true, messages: breakpoints },
        ...(last.thinkingBudget ? { thinkingBudget: last.thinkingBudget } : {}),
        reused: true,
      };
  }
  const newest = resumed && history.length ? [history.length - 1] : [];
  return { system: view.system, tools: view.tools, cache: { system: true, messages: newest }, reused: false };
}
