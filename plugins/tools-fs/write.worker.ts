import { displayPath, resolveToolPath, textResult, type ToolResult, type WorkerTask } from '../../core/index.js';
import { checksum, decodeText, encodeText, looksBinary, writeAtomic, type TextEncoding } from './file-io.js';
import { currentFile, refuseUnseen } from './file-guard.js';

function lineCount(text: string): number {
  if (!text) return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Write: create a file, or replace one the model has read (atomically, mode and encoding kept). */
export async function run(task: WorkerTask): Promise<ToolResult> {
  const input = task.input as { file_path: string; content: string };
  const path = resolveToolPath(input.file_path, task.projectRoot, 'file_path');
  const shown = displayPath(path, task.projectRoot);
  const current = currentFile(path, shown);
  if (current && 'content' in current) return current;
  let encoding: TextEncoding = 'utf8';
  if (current) {
    const refusal = refuseUnseen(current, task.state.seen as string | null, shown, 'overwritten');
    if (refusal) return refusal;
    if (!looksBinary(current.bytes)) encoding = decodeText(current.bytes).encoding;
  }
  const bytes = encodeText(input.content, encoding);
  writeAtomic(path, bytes, current?.mode);
  const lines = lineCount(input.content);
  return textResult(`${current ? 'Overwrote' : 'Created'} ${shown} (${lines} line${lines === 1 ? '' : 's'}, ${bytes.length} bytes).`, {
    file: path,
    checksum: checksum(bytes),
    created: !current,
    lines,
  });
}
