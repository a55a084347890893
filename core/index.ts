/**
 * The public plugin API of assistant. Plugins import from here (the package entry) and nowhere else.
 */
export { definePlugin } from './define-plugin.js';
export { Stage, type Hooks, type HookName, type TurnContext, type ToolCallInfo, type ShutdownInfo, type InteractiveSession } from './hooks.js';
export type { Kernel, Plugin, PluginContext, LoadedPlugin } from './kernel-types.js';
export { KERNEL_API_VERSION } from './version.js';
export {
  AssistantError,
  ConfigError,
  PluginError,
  ProviderError,
  ToolError,
  PermissionError,
  SessionError,
  ERROR_CODES,
  isAssistantError,
  formatError,
  type ErrorCode,
  type ErrorOptions,
} from './errors.js';
export type { Logger, LogLevel } from './logger.js';
export { userDirs, projectHash, projectDataDir, type UserDirs } from './util/paths.js';
export { openSession, type SessionState, type OpenSessionOptions } from './session.js';
export { applySessionEvent, emptySnapshot, snapshotFromEvents, titleFromPrompt, danglingToolResults } from './session-events.js';
export { currentOwner } from './util/surface.js';
export { keyedQueue, sessionSummary, pruneSessions } from './store-kit.js';
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
export { permissionRequestFor, decidePermission, resolveApprovals, type PermissionScope } from './permission/decide.js';
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
export { createRunner, type AgentRunner } from './agent/runner.js';
export { sessionConversation, memoryConversation, type Conversation } from './agent/conversation.js';
export { createSteeringQueue, type SteeringQueue } from './agent/steering.js';
