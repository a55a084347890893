/**
 * The main entry of assistant: what every plugin needs (definePlugin, stages, errors, result and
 * path helpers, the types) and `createKernel` for embedders. Helpers for particular kinds of plugin
 * sit behind their own subpath exports: `<pkg>/kits/provider`, `/kits/store`, `/kits/context`,
 * `/kits/metrics`, `/kits/agent`, `/kits/trust`, `/kits/tool` (tool worker modules), and the test
 * kit at `<pkg>/testing`.
 */
export { definePlugin } from './kernel/define-plugin.js';
export { createKernel, type KernelOptions } from './kernel/kernel.js';
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
} from './kernel/hooks.js';
export type { Kernel, Plugin, PluginContext, LoadedPlugin } from './kernel/kernel-types.js';
export { KERNEL_API_VERSION, PACKAGE_NAME } from './kernel/version.js';
export { PROJECT_CONFIG_FILES, createControlFiles, type ControlFile, type ControlFiles, type ControlPath } from './kernel/control-files.js';
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
  type KernelErrorCode,
  type ErrorCodeDefinition,
  type ErrorOptions,
  type ProviderErrorOptions,
} from './kernel/errors.js';
export { defineErrorCodes, type ErrorCodeSpec, type ErrorCodeTable, type ErrorCodeRegistry, type RegisteredErrorCode } from './kernel/error-codes.js';
export type { Logger, LogLevel } from './kernel/logger.js';
export { sourceFor } from './kernel/config-source.js';
export { userDirs, projectHash, projectDataDir, type UserDirs } from './util/paths.js';
export { currentOwner } from './util/surface.js';
export { stableJson } from './util/stable-json.js';
export { lazyImport } from './util/lazy-import.js';
export { compileSchema, describeSchemaErrors, schemaProblems } from './util/json-validate.js';
export { TOOL_NAME } from './tools/registry.js';
export { MCP_SERVER_NAME, parseMcpToolName } from './tools/mcp-names.js';
export { resolveToolPath, realPath, isInside, displayPath, hasDeceptiveChars, escapeDeceptive } from './tools/paths.js';
export { textResult, errorResult } from './tools/results.js';
export { LOCK_EVERYTHING, locksConflict, resourcesOverlap } from './tools/locks.js';
export { declaredPaths } from './tools/declared.js';
export type { ToolRuntimeOptions } from './tools/runtime.js';
export { permissionRequestFor, decidePermission, resolveApprovals, type PermissionScope } from './tools/permission.js';
export { allowHint, GENERIC_ALLOW_HINT } from './tools/hint.js';
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
