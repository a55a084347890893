/**
 * What a tool's worker module needs (`<pkg>/kits/tool`): result builders, path helpers and coded errors, and
 * nothing else. A pool worker imports only its tool's module graph, so a worker module that takes
 * these from here instead of the main entry does not load the kernel, tapable, ajv or the runtime
 * into every worker thread (measured: the main entry roughly doubles a worker's start-up CPU).
 */
export { textResult, errorResult } from '../../tools/results.js';
export { resolveToolPath, realPath, isInside, displayPath, hasDeceptiveChars, escapeDeceptive } from '../../tools/paths.js';
export { ToolError, isAssistantError } from '../../kernel/errors.js';
export { defineErrorCodes } from '../../kernel/error-codes.js';
export type { ToolResult, WorkerTask, WorkerContext, WorkerRun } from '../../types/tools.js';
export type { Json } from '../../types/json-schema.js';
