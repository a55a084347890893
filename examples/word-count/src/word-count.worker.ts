// Runs in a worker thread of the kernel's pool: it gets plain data (the task) and returns plain data
// (a ToolResult). No kernel, hooks or session here; what it needs comes in `task`.
import { readFile, stat } from 'node:fs/promises';
import { displayPath, errorResult, resolveToolPath, textResult, type ToolResult, type WorkerContext, type WorkerTask } from '@assistant-cli/assistant';

/** Lines, words and characters of a text. */
export function count(text: string): { lines: number; words: number; characters: number } {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return { lines, words: text.split(/\s+/).filter(Boolean).length, characters: [...text].length };
}

export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  // Resolved again here, on what is opened: symlinks followed, NUL bytes refused.
  const path = resolveToolPath(task.input.file_path, task.projectRoot, 'file_path');
  const shown = displayPath(path, task.projectRoot);
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is not a file; check the path with Glob.`);
  const maxBytes = Number(task.options.maxBytes);
  if (info.size > maxBytes) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is ${info.size} bytes, more than wordCount.maxBytes (${maxBytes}); not counted.`);
  const text = await readFile(path, { encoding: 'utf8', signal: context.signal });
  const { lines, words, characters } = count(text);
  return textResult(`${shown}: ${lines} lines, ${words} words, ${characters} characters`, { lines, words, characters });
}
