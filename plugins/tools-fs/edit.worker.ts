import { displayPath, escapeDeceptive, errorResult, resolveToolPath, textResult, type ToolResult, type WorkerTask } from '../../core/kits/tool/index.js';
import { writeChecked } from './checked-write.js';
import { checksum, decodeText, encodeText, looksBinary } from './file-io.js';
import { applyEdit, changeStats, diffSnippet, type TextEdit } from './edit-text.js';
import { refuseUnseen } from './file-guard.js';
import { boundaryFor } from './fs-guard.js';
import { maxWriteBytes, sizeError, tooLargeEdits } from './limits.js';

/**
 * Applies `edits` in order to the file, all or nothing: any edit that fails leaves the file
 * untouched. An empty `old_string` on a missing file creates it.
 */
function editFile(task: WorkerTask, filePath: unknown, edits: TextEdit[], label: (i: number) => string): ToolResult {
  const refused = tooLargeEdits(task.tool, edits, task.options);
  if (refused) return refused;
  const path = resolveToolPath(filePath, task.projectRoot, 'file_path');
  const shown = escapeDeceptive(displayPath(path, task.projectRoot));
  let before = '';
  let text = '';
  let replacements = 0;
  const outcome = writeChecked(
    path,
    shown,
    boundaryFor(filePath as string, path, task),
    (current) => {
      if (!current) {
        const [first, ...rest] = edits;
        if (first && first.old_string === '' && rest.length === 0) return { bytes: encodeText(first.new_string, 'utf8') };
        return errorResult('ASSISTANT_TOOL_FAILED', `File does not exist: ${shown}. To create it, use Write (or Edit with an empty old_string).`);
      }
      const refusal = refuseUnseen(current, task.state.seen as string | null, shown, 'edited');
      if (refusal) return refusal;
      if (looksBinary(current.bytes)) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a binary file; Edit changes text files only.`);
      const decoded = decodeText(current.bytes);
      before = decoded.text;
      text = before;
      for (let i = 0; i < edits.length; i++) {
        const result = before === '' && edits[i]!.old_string === '' ? { text: edits[i]!.new_string, replacements: 1 } : applyEdit(text, edits[i]!, maxWriteBytes(task.options));
        if ('error' in result) return errorResult(result.tooLarge ? 'ASSISTANT_TOOL_INPUT_TOO_LARGE' : 'ASSISTANT_TOOL_FAILED', `${label(i)}${result.error} ${shown} was not changed.`);
        text = result.text;
        replacements += result.replacements;
      }
      const bytes = encodeText(text, decoded.encoding);
      const cap = maxWriteBytes(task.options);
      if (bytes.length > cap) return sizeError(task.tool, 'the edited file', bytes.length, cap);
      return { bytes };
    },
    { allowHardLinks: task.state.hardLinked === true },
  );
  if ('content' in outcome) return outcome;
  const { bytes, current } = outcome;
  if (!current) return textResult(`Created ${shown}.`, { file: path, checksum: checksum(bytes), created: true });
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
