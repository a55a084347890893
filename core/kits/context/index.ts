/**
 * Helpers for context strategies and context tooling (`<pkg>/kits/context`): token estimates, cache
 * breakpoints, turn boundaries, the strategy tap, the request ledger and prices, and the context view.
 */
export {
  estimateMessageTokens,
  estimateMessagesTokens,
  estimateToolTokens,
  estimateParts,
  messagePart,
  TODO_REMINDER_TAG,
} from '../../context/estimate.js';
export { createCacheBreakpointPlanner, commonPrefixLength, type CacheBreakpointPlanner } from './cache-breakpoints.js';
export { isTurnBoundary, nextTurnBoundary, previousTurnBoundary, recentTurnsStart } from './turns.js';
export { tapContextStrategy, selectedContextStrategy, checkContextStrategy, applyContextStrategy, contextNotice, type ContextStrategy } from '../../context/strategy.js';
export { createContextLedger, inputTokens, type ContextLedger, type MeasureInput, type SentRequest, type RequestRecord, type LedgerTotals } from '../../context/ledger.js';
export { findPrice, costUsd, type ModelPrice, type PriceTable } from '../../context/pricing.js';
export {
  DEFAULT_MAX_OUTPUT,
  requestSettings,
  assembleContextView,
  buildContextView,
  assertFitsWindow,
  type RequestSettings,
  type ContextViewOptions,
} from './context-view.js';
