import type { Message } from '../../types/messages.js';
import { estimateMessageTokens } from '../../context/estimate.js';

/**
 * True when the history may be cut just before `index`: never before a tool message, so a tool
 * call is never separated from its result.
 */
export function isTurnBoundary(messages: readonly Message[], index: number): boolean {
  if (index <= 0 || index >= messages.length) return index === 0 || index === messages.length;
  return messages[index]!.role !== 'tool';
}

/** The first turn boundary at or after `index` (the history's length when there is none). */
export function nextTurnBoundary(messages: readonly Message[], index: number): number {
  let i = Math.min(messages.length, Math.max(0, index));
  while (i < messages.length && !isTurnBoundary(messages, i)) i++;
  return i;
}

/** The last turn boundary at or before `index` (`0` at the least). */
export function previousTurnBoundary(messages: readonly Message[], index: number): number {
  let i = Math.max(0, Math.min(messages.length, index));
  while (i > 0 && !isTurnBoundary(messages, i)) i--;
  return i;
}

/**
 * Where the most recent turns start when about `budgetTokens` of them are kept: the earliest turn
 * boundary whose tail fits the budget, but always at least the last turn. Returns `messages.length`
 * for an empty history.
 */
export function recentTurnsStart(messages: readonly Message[], budgetTokens: number, estimate: (m: Message) => number = estimateMessageTokens): number {
  let start = messages.length;
  let tokens = 0;
  let lastBoundary = messages.length;
  for (let i = messages.length - 1; i >= 0; i--) {
    tokens += estimate(messages[i]!);
    if (!isTurnBoundary(messages, i)) continue;
    if (tokens > budgetTokens && lastBoundary < messages.length) break;
    start = i;
    lastBoundary = i;
    if (tokens > budgetTokens) break;
  }
  return start;
}
