import { errorResult, type Json, type ToolResult } from '../../core/kits/tool/index.js';
import type { TextEdit } from './edit-text.js';

/** The largest file Write and Edit produce unless `maxWriteBytes` says otherwise: 10 MiB. */
export const DEFAULT_MAX_WRITE_BYTES = 10 * 1024 * 1024;

/** Bounds on the other inputs, enforced by the tools' schemas. */
export const INPUT_LIMITS = {
  /** A regular expression or glob pattern. */
  pattern: 4096,
  /** A path as given. */
  path: 4096,
  /** Entries of LS's ignore list and MultiEdit's edits. */
  items: 1000,
  /** Context lines and head_limit. */
  lines: 100_000,
} as const;

/** The configured cap, from the tool's options. */
export function maxWriteBytes(options: { [key: string]: Json } | undefined): number {
  const value = options?.maxWriteBytes;
  return typeof value === 'number' && value > 0 ? value : DEFAULT_MAX_WRITE_BYTES;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The error for content past the cap: nothing was written. */
export function sizeError(tool: string, what: string, size: number, cap: number): ToolResult {
  return errorResult(
    'ASSISTANT_TOOL_INPUT_TOO_LARGE',
    `${tool} refused: ${what} is ${mib(size)} (${size} bytes), over the ${mib(cap)} limit (tools-fs option maxWriteBytes). Nothing was written. Write a smaller file, or generate large files with a command.`,
    { size, limit: cap },
  );
}

/** The refusal of a string field past the cap, or undefined. */
export function tooLarge(tool: string, field: string, value: unknown, options: { [key: string]: Json } | undefined): ToolResult | undefined {
  if (typeof value !== 'string') return undefined;
  const cap = maxWriteBytes(options);
  // Cheap bound first: a UTF-8 byte is at most 3 per UTF-16 unit.
  if (value.length * 3 <= cap) return undefined;
  const size = Buffer.byteLength(value, 'utf8');
  return size > cap ? sizeError(tool, field, size, cap) : undefined;
}

/** The refusal of edits whose strings together pass the cap, or undefined. */
export function tooLargeEdits(tool: string, edits: unknown, options: { [key: string]: Json } | undefined): ToolResult | undefined {
  if (!Array.isArray(edits)) return undefined;
  let size = 0;
  for (const edit of edits as Partial<TextEdit>[]) {
    for (const value of [edit?.old_string, edit?.new_string]) if (typeof value === 'string') size += value.length * 3 > 1024 ? Buffer.byteLength(value, 'utf8') : value.length;
  }
  const cap = maxWriteBytes(options);
  return size > cap ? sizeError(tool, 'the edit text', size, cap) : undefined;
}
