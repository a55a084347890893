import { closeSync, readFileSync, readSync } from 'node:fs';
import { displayPath, escapeDeceptive, errorResult, resolveToolPath, textResult, type ToolResult, type WorkerTask } from '../../core/kits/tool/index.js';
import { checksum, decodeText, looksBinary, statOrUndefined } from './file-io.js';
import { describeBinary, imageType } from './file-kinds.js';
import { refusedResult } from './checked-write.js';
import { boundaryFor, isRefusal, openChecked } from './fs-guard.js';
import { readLineRange } from './read-range.js';

/** Files larger than this are refused whole: a model cannot use 10 MB of text in one go anyway. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;
/** Lines shown when the model gives no `limit`. */
export const DEFAULT_LINES = 2000;
/** Longer lines are cut (minified files would otherwise flood the context). */
const MAX_LINE_CHARS = 2000;
/** Images past this are described instead of sent (providers cap image size around 5 MB). */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

interface ReadInput {
  file_path: string;
  offset?: number;
  limit?: number;
}

/** Read: numbered lines of a text file (a range of them), an image as image content, a binary file described. */
export async function run(task: WorkerTask): Promise<ToolResult> {
  const input = task.input as unknown as ReadInput;
  const path = resolveToolPath(input.file_path, task.projectRoot, 'file_path');
  const shown = escapeDeceptive(displayPath(path, task.projectRoot));
  const opened = openChecked(path, shown, boundaryFor(input.file_path, path, task), { allowHardLinks: task.state.hardLinked === true });
  if (isRefusal(opened)) {
    if (opened.kind === 'missing') return errorResult('ASSISTANT_TOOL_FAILED', `File does not exist: ${shown}. Check the path with Glob or LS.`);
    if (opened.kind === 'not a regular file') {
      if (statOrUndefined(path)?.isDirectory()) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is a directory, not a file. Use LS to list it.`);
      // A FIFO or device would block or never end (/dev/zero): only regular files are read.
      return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is not a regular file (a device, pipe or socket); Read only reads files.`);
    }
    return refusedResult(opened, 'read');
  }
  let bytes: Buffer;
  try {
    if (opened.stats.size > MAX_READ_BYTES) {
      const size = `${(opened.stats.size / 1024 / 1024).toFixed(1)} MB`;
      if (input.offset === undefined && input.limit === undefined)
        return errorResult(
          'ASSISTANT_TOOL_FAILED',
          `${shown} is ${size}; Read handles files up to 10 MB whole. Pass offset and limit to read some of its lines, or search it with Grep.`,
        );
      // A slice of a huge file: the file was opened (and checked) once, its lines are streamed from that descriptor.
      return readSlice(opened.fd, shown, path, size, input);
    }
    bytes = readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
  const meta = { file: path, checksum: checksum(bytes), size: bytes.length };
  const image = imageType(bytes);
  if (image && bytes.length <= MAX_IMAGE_BYTES)
    return {
      content: [
        { type: 'text', text: `Image ${shown} (${image}, ${bytes.length} bytes):` },
        { type: 'image', mediaType: image, data: bytes.toString('base64') },
      ],
      metadata: { ...meta, kind: 'image' },
    };
  if (image || looksBinary(bytes)) return textResult(describeBinary(shown, bytes), { ...meta, kind: 'binary' });

  const { text, encoding } = decodeText(bytes);
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const total = text === '' ? 0 : lines.length;
  if (total === 0) return textResult(`${shown} is empty.`, { ...meta, kind: 'text', encoding, totalLines: 0, lines: 0 });
  const first = input.offset ?? 1;
  if (first > total)
    return errorResult('ASSISTANT_TOOL_FAILED', `offset ${first} is past the end of ${shown}, which has ${total} line${total === 1 ? '' : 's'}.`);
  const last = Math.min(total, first + (input.limit ?? DEFAULT_LINES) - 1);
  const width = Math.max(6, String(last).length);
  const out: string[] = [];
  for (let n = first; n <= last; n++) {
    let line = lines[n - 1]!;
    if (line.length > MAX_LINE_CHARS) line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length} characters]`;
    out.push(`${String(n).padStart(width)}\t${line}`);
  }
  const notes: string[] = [];
  if (encoding === 'latin1') notes.push('(The file is not valid UTF-8; it was decoded as Latin-1. Edits keep that encoding.)');
  if (first > 1 || last < total)
    notes.push(`(Showing lines ${first}-${last} of ${total}.${last < total ? ` Call Read with offset=${last + 1} to read on.` : ''})`);
  return textResult(notes.length ? `${out.join('\n')}\n\n${notes.join('\n')}` : out.join('\n'), {
    ...meta,
    kind: 'text',
    encoding,
    totalLines: total,
    lines: last - first + 1,
    firstLine: first,
    lastLine: last,
  });
}

/** Lines of a file over MAX_READ_BYTES: streamed, never read whole (so no checksum: Edit cannot take it from here). */
function readSlice(fd: number, shown: string, file: string, size: string, input: ReadInput): ToolResult {
  const head = Buffer.alloc(8192);
  const headBytes = head.subarray(0, readSync(fd, head, 0, head.length, 0));
  if (looksBinary(headBytes) || imageType(headBytes)) return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is ${size} and not text; Read shows lines of text files only.`);
  if (headBytes[0] === 0xfe || headBytes[0] === 0xff)
    return errorResult('ASSISTANT_TOOL_FAILED', `${shown} is ${size} of UTF-16 text, which Read cannot stream by lines; search it with Grep.`);
  const first = input.offset ?? 1;
  const range = readLineRange(fd, first, input.limit ?? DEFAULT_LINES, MAX_LINE_CHARS * 4, MAX_READ_BYTES);
  if (!range.lines.length)
    return errorResult('ASSISTANT_TOOL_FAILED', `offset ${first} is past the end of ${shown}, which has ${range.total} line${range.total === 1 ? '' : 's'}.`);
  if (first === 1) range.lines[0]!.text = range.lines[0]!.text.replace(/^\uFEFF/, '');
  const last = first + range.lines.length - 1;
  const width = Math.max(6, String(last).length);
  const out = range.lines.map(({ text, bytes }, i) => {
    const line = text.length > MAX_LINE_CHARS || bytes > MAX_LINE_CHARS * 4 ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut: ${bytes} bytes]` : text;
    return `${String(first + i).padStart(width)}\t${line}`;
  });
  const notes: string[] = [];
  if (range.latin1) notes.push('(Some lines are not valid UTF-8; they were decoded as Latin-1.)');
  notes.push(
    range.total === undefined
      ? `(Showing lines ${first}-${last} of a ${size} file. Call Read with offset=${last + 1} to read on.)`
      : `(Showing lines ${first}-${last} of ${range.total}.)`,
  );
  return textResult(`${out.join('\n')}\n\n${notes.join('\n')}`, {
    file,
    kind: 'text',
    lines: range.lines.length,
    firstLine: first,
    lastLine: last,
    ...(range.total === undefined ? {} : { totalLines: range.total }),
  });
}
