/**
 * The public plugin API of assistant. Plugins import from here (the package entry) and nowhere else.
 */
export { definePlugin } from './define-plugin.js';
export { Stage, type Hooks, type HookName, type TurnContext, type ToolCallInfo, type ShutdownInfo } from './hooks.js';
export type { Kernel, Plugin, PluginContext, LoadedPlugin } from './kernel-types.js';
export { KERNEL_API_VERSION } from './version.js';
export {
  AssistantError,
  ConfigError,
  PluginError,
  ProviderError,
  ToolError,
  PermissionError,
  ERROR_CODES,
  isAssistantError,
  formatError,
  type ErrorCode,
  type ErrorOptions,
} from './errors.js';
export type { Logger, LogLevel } from './logger.js';
export { userDirs, projectHash, projectDataDir, type UserDirs } from './util/paths.js';
export { openSession, type SessionState, type OpenSessionOptions } from './session.js';
export { TOOL_NAME } from './tools/registry.js';
export { resolveToolPath, realPath, isInside, displayPath } from './tools/paths.js';
export { textResult, errorResult } from './tools/results.js';
export { LOCK_EVERYTHING, locksConflict, resourcesOverlap } from './tools/locks.js';
export type { ToolRuntimeOptions } from './tools/runtime.js';
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
