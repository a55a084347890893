import { readFile, stat } from 'node:fs/promises';
import { structuredPatch } from 'diff';
import { isInside, realPath, resolveToolPath, type PermissionRequest } from '../../core/index.js';

/** A proposed edit as the web UI shows it: the file and the hunks of its structured patch. */
export interface EditDiff {
  path: string;
  hunks: Array<{ oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }>;
  /** Set when the diff shows only the replaced strings, not the file (outside the project, too big, unreadable). */
  partial?: boolean;
}

const MAX_FILE_BYTES = 1024 * 1024;

interface EditStep {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * The diff an Edit, MultiEdit or Write call would make, computed before it runs so the person
 * approving it sees what changes. Only files inside the project are read (the approval is about
 * that file; the server must not become a reader of others); elsewhere the strings alone are shown.
 */
export async function diffForRequest(request: PermissionRequest): Promise<EditDiff | undefined> {
  const input = request.input;
  const rawPath = typeof input.file_path === 'string' ? input.file_path : undefined;
  if (!rawPath || !['Edit', 'MultiEdit', 'Write'].includes(request.tool)) return undefined;
  const steps: EditStep[] | undefined =
    request.tool === 'Edit' ? [input as unknown as EditStep] : request.tool === 'MultiEdit' ? (input.edits as EditStep[] | undefined) : undefined;
  if (request.tool !== 'Write' && (!Array.isArray(steps) || steps.some((s) => typeof s?.old_string !== 'string' || typeof s?.new_string !== 'string'))) return undefined;
  const before = await readInside(request, rawPath);
  if (request.tool === 'Write') {
    const content = typeof input.content === 'string' ? input.content : '';
    return patch(rawPath, before ?? '', content, before === undefined && !(await missingInside(request, rawPath)));
  }
  if (before === undefined) {
    // Only the strings: each step as its own replacement.
    const oldText = steps!.map((s) => s.old_string).join('\n');
    const newText = steps!.map((s) => s.new_string).join('\n');
    return patch(rawPath, oldText, newText, true);
  }
  let after = before;
  for (const step of steps!) after = step.replace_all ? after.split(step.old_string).join(step.new_string) : after.replace(step.old_string, () => step.new_string);
  return patch(rawPath, before, after, false);
}

function patch(path: string, before: string, after: string, partial: boolean): EditDiff {
  const { hunks } = structuredPatch(path, path, before, after, '', '', { context: 3 });
  return { path, hunks: hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({ oldStart, oldLines, newStart, newLines, lines })), ...(partial ? { partial: true } : {}) };
}

/** The file's text when it is a regular file inside the project (symlinks resolved), else undefined. */
async function readInside(request: PermissionRequest, rawPath: string): Promise<string | undefined> {
  try {
    const real = realPath(resolveToolPath(rawPath, request.cwd));
    if (!isInside(real, realPath(request.projectRoot))) return undefined;
    const info = await stat(real);
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return undefined;
    return await readFile(real, 'utf8');
  } catch {
    return undefined;
  }
}

/** True when a Write creates a new file inside the project (then the empty "before" is the truth). */
async function missingInside(request: PermissionRequest, rawPath: string): Promise<boolean> {
  const absolute = resolveToolPath(rawPath, request.cwd);
  try {
    await stat(absolute);
    return false;
  } catch {
    return isInside(realPath(absolute), realPath(request.projectRoot));
  }
}
