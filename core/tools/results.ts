import { isAssistantError, type ErrorCode } from '../kernel/errors.js';
import type { Json } from '../types/json-schema.js';
import type { ToolResultPart } from '../types/messages.js';
import type { ToolResult } from '../types/tools.js';

/** A successful text result. */
export function textResult(text: string, metadata?: { [key: string]: Json }): ToolResult {
  return metadata ? { content: [{ type: 'text', text }], metadata } : { content: [{ type: 'text', text }] };
}

/** A failed call as the model sees it: what went wrong and what to do, with a stable code in `metadata.code`. */
export function errorResult(code: ErrorCode, text: string, metadata: { [key: string]: Json } = {}): ToolResult {
  return { content: [{ type: 'text', text }], isError: true, metadata: { ...metadata, code } };
}

/** An error result for something a tool or hook threw; keeps an AssistantError's own code. */
export function thrownResult(error: unknown, prefix = ''): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  const code = isAssistantError(error) ? error.code : 'ASSISTANT_TOOL_FAILED';
  return errorResult(code, prefix + message);
}

/** True when a worker or handler returned something shaped like a ToolResult. */
export function isToolResult(value: unknown): value is ToolResult {
  if (!value || typeof value !== 'object') return false;
  const content = (value as ToolResult).content;
  return Array.isArray(content) && content.every((p) => p && (p.type === 'text' ? typeof p.text === 'string' : p.type === 'image' && typeof p.data === 'string'));
}

/** The part the model receives for a call. */
export function toResultPart(toolCallId: string, result: ToolResult): ToolResultPart {
  const part: ToolResultPart = { type: 'tool_result', toolCallId, content: result.content };
  if (result.isError) part.isError = true;
  if (result.metadata) part.metadata = result.metadata;
  return part;
}
