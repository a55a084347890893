import { readFileSync } from 'node:fs';
import { errorResult, type ToolResult } from '../../core/index.js';
import { checksum, statOrUndefined } from './file-io.js';

/** The file as it is on disk now, when it exists. */
export interface CurrentFile {
  bytes: Buffer;
  mode: number;
  checksum: string;
}

/** Reads the target of a write; refuses folders. */
export function currentFile(path: string, shown: string): CurrentFile | ToolResult | undefined {
  const stats = statOrUndefined(path);
  if (!stats) return undefined;
  if (stats.isDirectory()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a directory; give a file path.`);
  if (!stats.isFile()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is not a regular file (a device, pipe or socket); it cannot be written as text.`);
  const bytes = readFileSync(path);
  return { bytes, mode: stats.mode, checksum: checksum(bytes) };
}

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
