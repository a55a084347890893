import { definePlugin, type JsonSchema } from '@assistant-cli/assistant';

/** Options, from the `wordCount` key of .assistantrc (or the plugin's entry in `plugins`). */
export interface WordCountOptions {
  /** Files larger than this are refused rather than read. */
  maxBytes?: number;
}

const optionsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { maxBytes: { type: 'integer', minimum: 1, default: 5_000_000 } },
};

const inputSchema: JsonSchema = {
  type: 'object',
  properties: { file_path: { type: 'string', description: 'A text file in the project, absolute or relative to the project root.' } },
  required: ['file_path'],
  additionalProperties: false,
};

/**
 * A `WordCount` tool whose work runs in the kernel's worker pool: reading and splitting a large
 * file takes CPU time that would otherwise stall the main thread streaming the model's reply.
 * Everything here runs on the main thread and only describes the call; the worker module does it.
 */
export default definePlugin<WordCountOptions>({
  name: 'word-count',
  version: '0.1.0',
  kernelApi: '^2.0.0',
  configKey: 'wordCount',
  optionsSchema,
  apply(kernel, options) {
    kernel.tools.register({
      name: 'WordCount',
      description: 'Counts the lines, words and characters of a text file in the project.',
      inputSchema,
      // What it touches, declared once: a read of that one file. The scheduler runs it alongside other
      // reads and makes it wait for a write to the file; the permission engine judges the same path.
      access: (input: { file_path: string }) => ({ reads: [input.file_path], writes: [] }),
      risk: { category: 'read' },
      summarize: (input: { file_path: string }) => input.file_path,
      // Resolved beside this file: dist/word-count.worker.js once built (the worker imports JavaScript).
      module: new URL('./word-count.worker.js', import.meta.url).href,
      options: { maxBytes: options.maxBytes ?? 5_000_000 },
      timeoutMs: 30_000,
    });
  },
});
