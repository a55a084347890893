import { errorResult, type ToolResult } from '../../core/kits/tool/index.js';
import type { CurrentFile } from './checked-write.js';

/**
 * The guard of every change to an existing file: the model must have read it in this session,
 * and it must not have changed since (the user's editor, a formatter, another agent).
 */
export function refuseUnseen(current: CurrentFile, seen: string | null | undefined, shown: string, verb: string): ToolResult | undefined {
  if (!seen)
    return errorResult(
      'ASSISTANT_TOOL_FAILED',
      `${shown} already exists and has not been read in this session, so it was not ${verb}. Read it first, then try again.`,
    );
  if (seen !== current.checksum)
    return errorResult(
      'ASSISTANT_TOOL_FAILED',
      `${shown} has changed since you last read it (edited by the user or another process), so it was not ${verb}. Read it again and redo the change on the new content.`,
      { conflict: true },
    );
  return undefined;
}
