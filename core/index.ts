/**
 * The public plugin API of assistant. Plugins import from here (the package entry) and nowhere else.
 */
export { definePlugin } from './define-plugin.js';
export {
  Stage,
  type Hooks,
  type HookName,
  type TurnContext,
  type ToolCallInfo,
  type ShutdownInfo,
  type InteractiveSession,
  type StopContext,
  type SessionOpenSource,
  type SessionOpenInfo,
} from './hooks.js';
export type { Kernel, Plugin, PluginContext, LoadedPlugin } from './kernel-types.js';
export { PROJECT_CONFIG_FILES, createControlFiles, type ControlFile, type ControlFiles, type ControlPath } from './control-files.js';
export { createSecretMatcher, secretContent, DEFAULT_SECRET_ALLOW, type SecretOptions } from './secret-files.js';
export { KERNEL_API_VERSION } from './version.js';
export {
  AssistantError,
  ConfigError,
  PluginError,
  ProviderError,
  ToolError,
  PermissionError,
  ContextError,
  SessionError,
  ERROR_CODES,
  isAssistantError,
  formatError,
  type ErrorCode,
  type ErrorOptions,
  type ProviderErrorOptions,
} from './errors.js';
export type { Logger, LogLevel } from './logger.js';
export { userDirs, projectHash, projectDataDir, type UserDirs } from './util/paths.js';
export { readTrust, updateTrust, revokeTrust, trustLocalRules, trustFile, sha256, type TrustRecord } from './util/trust-store.js';
export { openSession, type SessionState, type OpenSessionOptions } from './session.js';
export { applySessionEvent, emptySnapshot, snapshotFromEvents, titleFromPrompt, danglingToolResults } from './session-events.js';
export { currentOwner } from './util/surface.js';
export { ownerAlive, processStartTicks } from './util/owner-alive.js';
export { keyedQueue, sessionSummary, pruneSessions } from './store-kit.js';
export { ago, summaryLine } from './session-format.js';
export {
  writeFileAtomic,
  openJsonlAppender,
  readJsonl,
  parseJsonl,
  ensurePrivateDir,
  PRIVATE_FILE_MODE,
  PRIVATE_DIR_MODE,
  type JsonlAppender,
  type JsonlContents,
} from './util/durable-file.js';
export {
  createMetricsRegistry,
  mergeMetrics,
  histogramQuantile,
  DURATION_BUCKETS_MS,
  formatMetrics,
  type MetricsRegistry,
  type MetricsSnapshot,
  type MetricDescription,
  type MetricLabels,
  type CounterPoint,
  type HistogramPoint,
} from './metrics.js';
export { TOOL_NAME } from './tools/registry.js';
export { MCP_SERVER_NAME, parseMcpToolName } from './tools/mcp-names.js';
export { stableJson } from './util/stable-json.js';
export { sourceFor } from './util/config-source.js';
export { compileSchema, describeSchemaErrors, schemaProblems } from './util/json-validate.js';
export { resolveToolPath, realPath, isInside, displayPath, hasDeceptiveChars, escapeDeceptive } from './tools/paths.js';
export { textResult, errorResult } from './tools/results.js';
export { LOCK_EVERYTHING, locksConflict, resourcesOverlap } from './tools/locks.js';
export type { ToolRuntimeOptions } from './tools/runtime.js';
export { permissionRequestFor, decidePermission, resolveApprovals, type PermissionScope } from './permission/decide.js';
export * from './provider-kit/index.js';
export * from './types/messages.js';
export type * from './types/provider.js';
export type * from './types/tools.js';
export type * from './types/permission.js';
export type * from './types/session.js';
export type * from './types/context.js';
export type * from './types/commands.js';
export type * from './types/events.js';
export type * from './types/config.js';
export type * from './types/json-schema.js';
export { runAgentLoop, type AgentLoopOptions, type AgentLoopResult } from './agent/loop.js';
export { createRunner, type AgentRunner, type RunOptions } from './agent/runner.js';
export { sessionConversation, memoryConversation, type Conversation } from './agent/conversation.js';
export { createSteeringQueue, type SteeringQueue } from './agent/steering.js';
export {
  DEFAULT_MAX_OUTPUT,
  requestSettings,
  assembleContextView,
  buildContextView,
  assertFitsWindow,
  type RequestSettings,
  type ContextViewOptions,
} from './agent/context-view.js';
export { createContextLedger, inputTokens, type ContextLedger, type MeasureInput, type SentRequest, type RequestRecord, type LedgerTotals } from './context/ledger.js';
export { findPrice, costUsd, type ModelPrice, type PriceTable } from './context/pricing.js';
export {
  estimateMessageTokens,
  estimateMessagesTokens,
  estimateToolTokens,
  estimateParts,
  messagePart,
  TODO_REMINDER_TAG,
} from './context/estimate.js';
export { createCacheBreakpointPlanner, commonPrefixLength, type CacheBreakpointPlanner } from './context/cache-breakpoints.js';
export { isTurnBoundary, nextTurnBoundary, previousTurnBoundary, recentTurnsStart } from './context/turns.js';
export { tapContextStrategy, contextStrategyTapName, selectedContextStrategy, checkContextStrategy, contextNotice } from './context/strategy.js';
