import { definePlugin, errorResult, resolveToolPath, displayPath, type ToolDefinition } from '../../core/index.js';
import { fsTools } from './definitions.js';
import { ReadState } from './read-state.js';

/** Options of the tools-fs plugin. */
export interface ToolsFsOptions {
  /** Grep backend: ripgrep when on PATH (`auto`), or force one. */
  grepBackend?: 'auto' | 'ripgrep' | 'scanner';
}

type Input = Record<string, unknown>;

/** Tools that change a file: the worker gets the checksum the model last saw, to refuse stale changes. */
const CHANGES_FILES = new Set(['Write', 'Edit', 'MultiEdit']);
/** Tools whose result tells what the model now knows of a file. */
const RECORDS_FILE = new Set(['Read', 'Write', 'Edit', 'MultiEdit']);

export default definePlugin<ToolsFsOptions>({
  name: 'tools-fs',
  version: '1.0.0',
  optionsSchema: {
    type: 'object',
    properties: { grepBackend: { enum: ['auto', 'ripgrep', 'scanner'], default: 'auto' } },
    additionalProperties: false,
  },
  apply(kernel, options) {
    const state = new ReadState(kernel.files);
    for (const definition of fsTools(options.grepBackend ?? 'auto')) {
      const tool: ToolDefinition<Input> = { ...definition };
      if (CHANGES_FILES.has(tool.name))
        tool.prepare = (input, context) => {
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
          return { state: { seen } };
        };
      if (RECORDS_FILE.has(tool.name))
        tool.settle = (result, _input, context) => {
          const { file, checksum } = result.metadata ?? {};
          if (!result.isError && typeof file === 'string' && typeof checksum === 'string') state.record(context, file, checksum);
        };
      kernel.tools.register(tool);
    }
  },
});
