import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { displayPath, errorResult, escapeDeceptive, resolveToolPath, textResult, type ToolResult, type WorkerContext, type WorkerTask } from '../../core/kits/tool/index.js';
import { refusedResult } from './checked-write.js';
import { statOrUndefined } from './file-io.js';
import { boundaryFor, isRefusal } from './fs-guard.js';
import { verifyHits } from './grep-verify.js';
import { climbsOut } from './patterns.js';
import { EntryGuard } from './search-guard.js';
import { formatGrep } from './grep-format.js';
import { FILE_TYPES, type GrepFile, type GrepQuery } from './grep-query.js';
import { ripgrepAvailable, ripgrepDidNotStart, searchWithRipgrep } from './grep-rg.js';
import { compilePattern, filesToScan, scanFiles } from './grep-scan.js';

/** Trees with more files than this are split across helper threads by the built-in scanner. */
const SPLIT_ABOVE = 2000;

interface GrepInput {
  pattern: string;
  path?: string;
  glob?: string;
  type?: string;
  output_mode?: GrepQuery['mode'];
  '-i'?: boolean;
  '-n'?: boolean;
  '-A'?: number;
  '-B'?: number;
  '-C'?: number;
  head_limit?: number;
}

/** The query a Grep input asks for; a string is a message for the model. */
function toQuery(input: GrepInput, task: WorkerTask): GrepQuery | string {
  const root = input.path === undefined ? task.projectRoot : resolveToolPath(input.path, task.projectRoot, 'path');
  if (!statOrUndefined(root)) return `path does not exist: ${escapeDeceptive(input.path ?? '.')}`;
  for (const glob of input.glob ? input.glob.split(/\s+/) : []) if (climbsOut(glob)) return `glob "${escapeDeceptive(glob)}" climbs out of the searched folder with "..": give the folder as path instead`;
  const typeGlobs = input.type ? FILE_TYPES[input.type.toLowerCase()] : [];
  if (!typeGlobs) return `unknown type "${input.type}"; known types: ${Object.keys(FILE_TYPES).join(', ')} (or filter with glob, e.g. "*.ext")`;
  const context = input['-C'] ?? 0;
  return {
    pattern: input.pattern,
    root,
    projectRoot: task.projectRoot,
    ignoreCase: input['-i'] ?? false,
    mode: input.output_mode ?? 'files_with_matches',
    lineNumbers: input['-n'] ?? true,
    before: input['-B'] ?? context,
    after: input['-A'] ?? context,
    globs: input.glob ? input.glob.split(/\s+/).filter(Boolean) : [],
    typeGlobs,
    ...(input.head_limit ? { headLimit: input.head_limit } : {}),
  };
}

/** The built-in scanner: the file list is split across helper threads when it is long. */
async function scan(query: GrepQuery, context: WorkerContext): Promise<GrepFile[]> {
  compilePattern(query);
  const files = filesToScan(query);
  const threads = Math.min(4, availableParallelism());
  if (files.length <= SPLIT_ABOVE || threads < 2) return scanFiles(files, query, () => context.signal.aborted);
  const size = Math.ceil(files.length / threads);
  const parts = Array.from({ length: threads }, (_, i) => files.slice(i * size, (i + 1) * size));
  const helpers = parts.map((part) => new Worker(new URL('./grep-scan.worker.js', import.meta.url), { workerData: { files: part, query } }));
  const stop = () => helpers.forEach((h) => void h.terminate());
  context.signal.addEventListener('abort', stop, { once: true });
  try {
    const results = await Promise.all(
      helpers.map(
        (helper) =>
          new Promise<GrepFile[]>((resolve, reject) => {
            helper.once('message', resolve);
            helper.once('error', reject);
            helper.once('exit', (code) => reject(new Error(`a scanner thread stopped (exit code ${code})`)));
          }),
      ),
    );
    return results.flat();
  } finally {
    context.signal.removeEventListener('abort', stop);
    stop();
  }
}

/** Grep: regex search over file contents, with ripgrep when it is installed and the built-in scanner otherwise. */
export async function run(task: WorkerTask, context: WorkerContext): Promise<ToolResult> {
  const input = task.input as unknown as GrepInput;
  const query = toQuery(input, task);
  if (typeof query === 'string') return errorResult('ASSISTANT_TOOL_INPUT_INVALID', `Grep: ${query}.`);
  const boundary = boundaryFor(input.path, query.root, task);
  const checkedRoot = EntryGuard.root(query.root, escapeDeceptive(displayPath(query.root, task.projectRoot)), boundary);
  if (isRefusal(checkedRoot)) return refusedResult(checkedRoot, 'searched');
  // A pipe or device named as the path would block ripgrep until the time limit (or never end).
  const kind = statOrUndefined(checkedRoot.real);
  if (kind && !kind.isFile() && !kind.isDirectory())
    return errorResult('ASSISTANT_TOOL_FAILED', `${escapeDeceptive(displayPath(query.root, task.projectRoot))} is not a regular file or a folder (a device, pipe or socket); Grep searches files.`);
  const auto = task.options.backend !== 'ripgrep' && task.options.backend !== 'scanner';
  let useRipgrep = task.options.backend === 'ripgrep' || (auto && ripgrepAvailable(task.projectRoot));
  let found: GrepFile[];
  try {
    found = useRipgrep
      ? await searchWithRipgrep(query, context).catch((error: unknown) => {
          if (!auto || !ripgrepDidNotStart(error)) throw error;
          useRipgrep = false;
          return scan(query, context);
        })
      : await scan(query, context);
  } catch (error) {
    if (context.signal.aborted) return errorResult('ASSISTANT_TOOL_ABORTED', 'Grep was cancelled.');
    const message = (error as Error).message;
    return errorResult('ASSISTANT_TOOL_FAILED', `Grep failed: ${message}${/regex|regular expression|parse|pattern/i.test(message) ? ' (the pattern is a regular expression: escape special characters such as ( [ { . * + ? with a backslash)' : ''}`);
  }
  const { kept, withheld } = verifyHits(found, boundary, task.projectRoot, query.mode === 'content');
  const { text, count } = formatGrep(kept, query);
  return textResult(withheld.total ? `${text}\n${withheld.note()}` : text, { files: count, backend: useRipgrep ? 'ripgrep' : 'scanner', withheld: withheld.toJson() });
}
