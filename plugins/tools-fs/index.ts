import { lstatSync } from 'node:fs';
import { definePlugin, errorResult, resolveToolPath, displayPath, realPath, type Json, type ToolContext, type ToolDefinition } from '../../core/index.js';
import { configuredAddedDirectories, onDirectoryAdded, realAddedDirectories, secretOptionsOf } from '../../core/kits/fs/index.js';
import { fsTools } from './definitions.js';
import { DEFAULT_MAX_WRITE_BYTES, tooLarge, tooLargeEdits } from './limits.js';
import { ReadState } from './read-state.js';
import { TOOLS_FS_ERRORS } from './errors.js';

/** Options of the tools-fs plugin. */
export interface ToolsFsOptions {
  /** Grep backend: ripgrep when on PATH (`auto`), or force one. */
  grepBackend?: 'auto' | 'ripgrep' | 'scanner';
  /** Largest content Write and Edit accept, in bytes (default 10 MiB). */
  maxWriteBytes?: number;
}

type Input = Record<string, unknown>;

/** Tools that change a file: the worker gets the checksum the model last saw, to refuse stale changes. */
const CHANGES_FILES = new Set(['Write', 'Edit', 'MultiEdit']);
/** Tools whose result tells what the model now knows of a file. */
const RECORDS_FILE = new Set(['Read', 'Write', 'Edit', 'MultiEdit']);

/** Whether the file has more than one hard link now, right after the policy judged the call (it asks about those). */
function hardLinked(path: string): boolean {
  try {
    const stats = lstatSync(path);
    return stats.isFile() && stats.nlink > 1;
  } catch {
    return false;
  }
}

/**
 * The added directories (`--add-dir`) as configured and real, for the workers' boundary: a path
 * named inside one is held to it as a path in the project is held to the project. None when the
 * list does not check out (the permission policy refuses such a start).
 */
function addedRoots(config: Record<string, unknown>, projectRoot: string): Json[] {
  const given = configuredAddedDirectories(config).filter((d): d is string => typeof d === 'string');
  try {
    const reals = realAddedDirectories(given, realPath(projectRoot), 'the configuration');
    return given.flatMap((dir) => {
      const real = realPath(dir);
      return reals.includes(real) ? [{ given: dir, real }] : [];
    });
  } catch {
    return [];
  }
}

export default definePlugin<ToolsFsOptions>({
  name: 'tools-fs',
  errors: TOOLS_FS_ERRORS,
  version: '1.0.0',
  optionsSchema: {
    type: 'object',
    properties: {
      grepBackend: { enum: ['auto', 'ripgrep', 'scanner'], default: 'auto' },
      maxWriteBytes: { type: 'integer', minimum: 1, default: DEFAULT_MAX_WRITE_BYTES },
    },
    additionalProperties: false,
  },
  apply(kernel, options) {
    const state = new ReadState(kernel.files);
    const shared: { [key: string]: Json } = {
      maxWriteBytes: options.maxWriteBytes ?? DEFAULT_MAX_WRITE_BYTES,
      secrets: { ...secretOptionsOf(kernel.config as Record<string, unknown>) },
      addedRoots: addedRoots(kernel.config as Record<string, unknown>, kernel.projectRoot),
    };
    // Every tool's options share this one list, so a folder added by `/add-dir` reaches the next call's worker.
    onDirectoryAdded(kernel, (real) => (shared.addedRoots as Json[]).push({ given: real, real }));
    for (const definition of fsTools(options.grepBackend ?? 'auto')) {
      const tool: ToolDefinition<Input> = { ...definition, ...(definition.module ? { options: { ...definition.options, ...shared } } : {}) } as ToolDefinition<Input>;
      if (CHANGES_FILES.has(tool.name))
        tool.prepare = (input, context) => {
          // Refused here, before the content is copied to a worker, let alone written.
          const oversized = tool.name === 'Write' ? tooLarge(tool.name, 'content', input.content, shared) : tooLargeEdits(tool.name, tool.name === 'Edit' ? [input] : input.edits, shared);
          if (oversized) return { result: oversized };
          const path = resolveToolPath(input.file_path, context.projectRoot, 'file_path');
          const seen = state.seenBy(context, path) ?? null;
          const onDisk = state.knownOnDisk(path);
          if (seen && onDisk && onDisk !== seen)
            return {
              result: errorResult(
                'ASSISTANT_TOOL_FAILED',
                `${displayPath(path, context.projectRoot)} has changed since you last read it (edited by the user or another process), so it was not changed. Read it again and redo the change on the new content.`,
                { conflict: true },
              ),
            };
          return { state: { seen, hardLinked: hardLinked(path) } };
        };
      if (tool.name === 'Read') tool.prepare = (input, context: ToolContext) => ({ state: { hardLinked: hardLinked(resolveToolPath(input.file_path, context.projectRoot, 'file_path')) } });
      if (RECORDS_FILE.has(tool.name))
        tool.settle = (result, _input, context) => {
          const { file, checksum } = result.metadata ?? {};
          if (!result.isError && typeof file === 'string' && typeof checksum === 'string') state.record(context, file, checksum);
        };
      kernel.tools.register(tool);
    }
  },
});
