import { lstatSync, readFileSync } from 'node:fs';
import type * as acp from '@agentclientprotocol/sdk';
import { definePlugin, isInside, realPath, resolveToolPath, Stage, type ToolResultPart } from '../../core/index.js';

/** The editor's file methods this session may use (what it offered in `initialize`). */
export interface ClientFiles {
  read?: (path: string, line: number | undefined, limit: number | undefined) => Promise<string>;
  write?: (path: string, content: string) => Promise<void>;
}

/** Largest file compared with, or sent to, the editor. */
const MAX_BYTES = 1024 * 1024;
const EDITS = new Set(['Write', 'Edit', 'MultiEdit']);

/** The file a successful call touched, when it is a plain file inside the project (never a link out of it). */
function projectFile(input: Record<string, unknown>, projectRoot: string): string | undefined {
  if (typeof input.file_path !== 'string') return undefined;
  try {
    const path = resolveToolPath(input.file_path, projectRoot, 'file_path');
    const real = realPath(path);
    const stat = lstatSync(real);
    return isInside(real, projectRoot) && stat.isFile() && stat.nlink === 1 && stat.size <= MAX_BYTES ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The lines `offset`.. of `text` (1-based), `limit` of them, as Read's numbered lines. */
function numbered(text: string, offset = 1, limit = 2000): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines
    .slice(offset - 1, offset - 1 + limit)
    .map((line, i) => `${String(offset + i).padStart(6)}\t${line}`)
    .join('\n');
}

const withNote = (result: ToolResultPart, text: string): ToolResultPart => ({ ...result, content: [...result.content, { type: 'text', text }] });

/**
 * The editor's buffers, where it offers them (ACP `fs`): the file tools still run as always (the
 * permission engine, the workers' checks on what they open, the read-before-edit record), and then
 * a Read of a file with unsaved changes in the editor also shows the buffer's text, and a Write or
 * Edit is handed to the editor so its open buffer shows it (and it can review or undo it).
 */
export function clientFilesPlugin(files: ClientFiles) {
  return definePlugin({
    name: 'surface-acp-files',
    apply(kernel, _options, { logger }) {
      kernel.hooks.afterToolCall.tapPromise({ name: 'surface-acp-files', stage: Stage.LAST }, async (result, { call }) => {
        if (result.isError) return result;
        const path = (call.name === 'Read' || EDITS.has(call.name)) && projectFile(call.input, kernel.projectRoot);
        if (!path) return result;
        try {
          const onDisk = readFileSync(path, 'utf8');
          if (call.name === 'Read' && files.read) {
            const buffer = await files.read(path, undefined, undefined);
            if (buffer === onDisk) return result;
            const { offset, limit } = call.input as { offset?: number; limit?: number };
            return withNote(
              result,
              `<editor-buffer path="${path}">\nThe editor has unsaved changes to this file; its buffer reads:\n${numbered(buffer, offset, limit)}\n</editor-buffer>\nEdit changes the file on disk (above), not the buffer.`,
            );
          }
          if (EDITS.has(call.name) && files.write) await files.write(path, onDisk);
        } catch (error) {
          // The file on disk is what counts; the editor only mirrors it.
          logger.warn(`the editor's fs request for ${path} failed: ${(error as Error)?.message ?? error}`);
        }
        return result;
      });
    },
  });
}

/** The file methods `initialize` offered, bound to one session. */
export function clientFilesFor(client: acp.AgentContext, capabilities: acp.ClientCapabilities | undefined, sessionId: () => string): ClientFiles {
  return {
    ...(capabilities?.fs?.readTextFile
      ? { read: async (path: string) => (await client.request('fs/read_text_file', { sessionId: sessionId(), path })).content }
      : {}),
    ...(capabilities?.fs?.writeTextFile ? { write: async (path: string, content: string) => void (await client.request('fs/write_text_file', { sessionId: sessionId(), path, content })) } : {}),
  };
}
