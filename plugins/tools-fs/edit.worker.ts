import { displayPath, errorResult, resolveToolPath, textResult, type ToolResult, type WorkerTask } from '../../core/index.js';
import { checksum, decodeText, encodeText, looksBinary, writeAtomic } from './file-io.js';
import { applyEdit, changeStats, diffSnippet, type TextEdit } from './edit-text.js';
import { currentFile, refuseUnseen } from './file-guard.js';

/**
 * Applies `edits` in order to the file, all or nothing: any edit that fails leaves the file
 * untouched. An empty `old_string` on a missing file creates it.
 */
function editFile(task: WorkerTask, filePath: unknown, edits: TextEdit[], label: (i: number) => string): ToolResult {
  const path = resolveToolPath(filePath, task.projectRoot, 'file_path');
  const shown = displayPath(path, task.projectRoot);
  const current = currentFile(path, shown);
  if (current && 'content' in current) return current;
  if (!current) {
    const [first, ...rest] = edits;
    if (first && first.old_string === '' && rest.length === 0) {
      const bytes = encodeText(first.new_string, 'utf8');
      writeAtomic(path, bytes);
      return textResult(`Created ${shown}.`, { file: path, checksum: checksum(bytes), created: true });
    }
    return errorResult('ASSISTANT_TOOL_FAILED', `File does not exist: ${shown}. To create it, use Write (or Edit with an empty old_string).`);
  }
  const refusal = refuseUnseen(current, task.state.seen as string | null, shown, 'edited');
  if (refusal) return refusal;
  if (looksBinary(current.bytes)) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a binary file; Edit changes text files only.`);
  const { text: before, encoding } = decodeText(current.bytes);
  let text = before;
  let replacements = 0;
  for (let i = 0; i < edits.length; i++) {
    const outcome = before === '' && edits[i]!.old_string === '' ? { text: edits[i]!.new_string, replacements: 1 } : applyEdit(text, edits[i]!);
    if ('error' in outcome) return errorResult('ASSISTANT_TOOL_FAILED', `${label(i)}${outcome.error} ${shown} was not changed.`);
    text = outcome.text;
    replacements += outcome.replacements;
  }
  const bytes = encodeText(text, encoding);
  writeAtomic(path, bytes, current.mode);
  const diff = diffSnippet(before, text);
  return textResult(`Edited ${shown} (${replacements} replacement${replacements === 1 ? '' : 's'}):\n${diff}`, {
    file: path,
    checksum: checksum(bytes),
    replacements,
    ...changeStats(before, text),
    diff,
  });
}

/** Edit: replace one unique `old_string` (or every one with `replace_all`). */
export async function run(task: WorkerTask): Promise<ToolResult> {
  const input = task.input as unknown as TextEdit & { file_path: string };
  return editFile(task, input.file_path, [input], () => '');
}

/** MultiEdit: several edits to one file, applied in order, all or nothing. */
export async function runMulti(task: WorkerTask): Promise<ToolResult> {
  const input = task.input as { file_path: string; edits: TextEdit[] };
  return editFile(task, input.file_path, input.edits, (i) => `Edit ${i + 1} of ${input.edits.length}: `);
}
