import { displayPath, escapeDeceptive, errorResult, resolveToolPath, textResult, type ToolResult, type WorkerTask } from '../../core/kits/tool/index.js';
import { writeChecked } from './checked-write.js';
import { checksum, decodeText, encodeText, looksBinary, type TextEncoding } from './file-io.js';
import { refuseUnseen } from './file-guard.js';
import { boundaryFor } from './fs-guard.js';
import { tooLarge } from './limits.js';

function lineCount(text: string): number {
  if (!text) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Write: create a file, or replace one the model has read (atomically, mode and encoding kept). */
export async function run(task: WorkerTask): Promise<ToolResult> {
  const input = task.input as { file_path: string; content: string };
  const refused = tooLarge('Write', 'content', input.content, task.options);
  if (refused) return refused;
  const path = resolveToolPath(input.file_path, task.projectRoot, 'file_path');
  const shown = escapeDeceptive(displayPath(path, task.projectRoot));
  let encoding: TextEncoding = 'utf8';
  const outcome = writeChecked(
    path,
    shown,
    boundaryFor(input.file_path, path, task),
    (current) => {
      if (current) {
        const refusal = refuseUnseen(current, task.state.seen as string | null, shown, 'overwritten');
        if (refusal) return refusal;
        if (!looksBinary(current.bytes)) encoding = decodeText(current.bytes).encoding;
      }
      return { bytes: encodeText(input.content, encoding) };
    },
    { allowHardLinks: task.state.hardLinked === true },
  );
  if ('content' in outcome) return outcome;
  const { bytes, current } = outcome;
  const lines = lineCount(input.content);
  if (bytes.length === 0 && input.content.length > 0) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} could not be encoded.`);
  return textResult(`${current ? 'Overwrote' : 'Created'} ${shown} (${lines} line${lines === 1 ? '' : 's'}, ${bytes.length} bytes).`, {
    file: path,
    checksum: checksum(bytes),
    created: !current,
    lines,
  });
}
