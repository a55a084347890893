import { readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ApprovalRequest } from '../../../core/index.js';
import type { Style } from '../terminal/style.js';
import { breakLine, sanitize, truncate, wrapLine } from '../terminal/width.js';
import { createHighlighter } from '../render/highlight.js';
import { renderDiff } from '../render/diff.js';
import { fallbackSummary } from '../render/tool-line.js';

/** Files larger than this are described, not diffed. */
const MAX_DIFF_BYTES = 2 * 1024 * 1024;

interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** The file a call would change and its content afterwards, when the input says (Edit, MultiEdit, Write). */
export interface PlannedChange {
  path: string;
  before: string;
  after: string;
  /** Why the change as shown may not be what happens (old_string not found, ...). */
  note?: string;
  created: boolean;
}

/**
 * Works out what an edit-like call will do to the file on disk: Write replaces the content,
 * Edit and MultiEdit replace `old_string` with `new_string` (every occurrence with `replace_all`).
 */
export async function plannedChange(input: Record<string, unknown>, cwd: string): Promise<PlannedChange | undefined> {
  const filePath = typeof input.file_path === 'string' ? input.file_path : typeof input.path === 'string' ? input.path : undefined;
  if (!filePath) return undefined;
  const content = typeof input.content === 'string' ? input.content : undefined;
  const edits: EditSpec[] | undefined = Array.isArray(input.edits)
    ? (input.edits as EditSpec[])
    : typeof input.old_string === 'string' && typeof input.new_string === 'string'
      ? [{ old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all === true }]
      : undefined;
  if (content === undefined && !edits) return undefined;
  const path = resolve(cwd, filePath);
  let before = '';
  let created = false;
  try {
    const info = await stat(path);
    if (info.size > MAX_DIFF_BYTES) return { path, before: '', after: '', created: false, note: `the file is ${(info.size / 1048576).toFixed(1)} MiB: too large to show a diff` };
    before = await readFile(path, 'utf8');
  } catch {
    created = true;
  }
  if (content !== undefined) return { path, before, after: content, created };
  let after = before;
  const notes: string[] = [];
  for (const [i, edit] of edits!.entries()) {
    if (typeof edit?.old_string !== 'string' || typeof edit.new_string !== 'string') {
      notes.push(`edit ${i + 1} is malformed`);
      continue;
    }
    if (edit.old_string === '' && after === '') {
      after = edit.new_string;
      continue;
    }
    const at = after.indexOf(edit.old_string);
    if (at < 0 || edit.old_string === '') {
      notes.push(`old_string${edits!.length > 1 ? ` of edit ${i + 1}` : ''} is not in the file: this edit will fail`);
      continue;
    }
    if (!edit.replace_all && after.indexOf(edit.old_string, at + 1) >= 0) notes.push(`old_string${edits!.length > 1 ? ` of edit ${i + 1}` : ''} occurs more than once: this edit will fail unless replace_all is set`);
    after = edit.replace_all ? after.split(edit.old_string).join(edit.new_string) : after.slice(0, at) + edit.new_string + after.slice(at + edit.old_string.length);
  }
  return { path, before, after, created, note: notes.join('; ') || undefined };
}

/** Resolves a path the way the permission engine must: against the cwd, through every symlink, even for a file that does not exist yet. */
export async function resolveReal(path: string, cwd: string): Promise<string> {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  let head = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      return join(await realpath(head), ...tail.reverse());
    } catch {
      const parent = dirname(head);
      if (parent === head) return absolute;
      tail.push(basename(head));
      head = parent;
    }
  }
}

function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(sep));
}

/**
 * The lines an approval shows for one call: what it is, exactly what it will do (a diff for file
 * changes, the command for shell calls, the input otherwise), resolved paths that leave the
 * project, and why the permission engine asks.
 */
export async function approvalPreview(item: ApprovalRequest, index: number, total: number, style: Style, width: number): Promise<string[]> {
  const { request, decision } = item;
  const counter = total > 1 ? style.gray(` (${index + 1} of ${total})`) : '';
  // A sub-agent's request says whose it is: several may be waiting for an answer.
  const who = request.agentId ? style.gray(` · sub-agent ${sanitize(request.agentId)}`) : '';
  const title = (what: string, extra = '') => truncate(`${style.yellow('◆')} ${style.bold(request.tool)}${what ? ' ' + what : ''}`, width - 24) + extra + who + counter;
  const lines: string[] = [];

  const realRoot = await realpath(request.projectRoot).catch(() => request.projectRoot);
  const change = request.category === 'edit' || request.input.old_string !== undefined || request.input.edits !== undefined ? await plannedChange(request.input, request.cwd) : undefined;
  if (change) {
    const shown = sanitize(relative(request.cwd, change.path) || change.path);
    if (change.before === change.after) lines.push(title(shown, style.gray(change.note ? '' : '  no change')));
    else {
      const diff = await renderDiff(change.before, change.after, style, width - 2);
      lines.push(title(shown, `${change.created ? style.gray('  new file') : ''}  ${style.green(`+${diff.stats.added}`)} ${style.red(`−${diff.stats.removed}`)}`));
      for (const line of diff.lines) lines.push('  ' + line);
    }
    if (change.note) lines.push(style.yellow(`  ⚠ ${change.note}`));
  } else if (request.command !== undefined) {
    lines.push(title(''));
    const sh = createHighlighter('sh', style);
    sanitize(request.command)
      .split('\n')
      .forEach((line, i) => lines.push(...breakLine(`  ${i === 0 ? style.gray('$') : ' '} ${sh.line(line)}`, width, '    ')));
  } else {
    lines.push(title(sanitize(fallbackSummary(request.input)).split('\n')[0]!));
    const json = sanitize(JSON.stringify(request.input, null, 2)).split('\n');
    for (const line of json.slice(0, 30)) lines.push(...breakLine('  ' + style.dim(line), width, '    '));
    if (json.length > 30) lines.push(style.gray(`  … ${json.length - 30} more lines of input`));
  }

  for (const path of request.paths) {
    const real = await resolveReal(path, request.cwd);
    if (inside(real, realRoot)) continue;
    const lexical = isAbsolute(path) ? path : resolve(request.cwd, path);
    const via = lexical !== real ? style.gray(` (${sanitize(path)} resolves there)`) : '';
    lines.push(...breakLine(style.yellow(`  ⚠ outside the project: ${sanitize(real)}`) + via, width, '    '));
  }
  lines.push(...wrapLine(style.gray(`  why: ${sanitize(decision.reason)}${decision.layer ? ` [${decision.layer}]` : ''}`), width, '       '));
  return lines;
}
