import { statSync } from 'node:fs';
import { displayPath, escapeDeceptive } from '../../core/kits/tool/index.js';
import type { GrepFile, GrepQuery } from './grep-query.js';

/** Output past this many characters is cut (the model is told how to narrow the search). */
export const MAX_OUTPUT_CHARS = 30_000;
/** Longer lines are cut: minified files would otherwise fill the output with one line. */
const MAX_LINE_CHARS = 500;

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function clip(text: string): string {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [${line.length} characters]` : line;
}

/**
 * Formats hits the same way whichever backend found them: files in path order (newest first for
 * files_with_matches), lines in order, `--` between context groups, `head_limit` on the entries.
 */
export function formatGrep(found: GrepFile[], query: GrepQuery): { text: string; count: number } {
  const show = (path: string) => escapeDeceptive(displayPath(path, query.projectRoot));
  if (!found.length) return { text: `No matches found for ${JSON.stringify(query.pattern)} in ${show(query.root)}.`, count: 0 };
  const limit = query.headLimit;
  let entries: string[];
  let summary: string;
  if (query.mode === 'files_with_matches') {
    const sorted = found.map((f) => ({ path: f.path, time: mtime(f.path) })).sort((a, b) => b.time - a.time || (a.path < b.path ? -1 : 1));
    entries = sorted.map((f) => show(f.path));
    summary = `Found ${found.length} file${found.length === 1 ? '' : 's'}`;
  } else {
    found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (query.mode === 'count') {
      entries = found.map((f) => `${show(f.path)}:${f.count}`);
      const total = found.reduce((n, f) => n + f.count, 0);
      summary = `Found ${total} matching line${total === 1 ? '' : 's'} in ${found.length} file${found.length === 1 ? '' : 's'}`;
    } else {
      entries = contentLines(found, query, show);
      summary = '';
    }
  }
  const total = entries.length;
  if (limit !== undefined && entries.length > limit) entries = entries.slice(0, limit);
  let body = entries.join('\n');
  const notes: string[] = [];
  if (entries.length < total) notes.push(`(showing the first ${entries.length} of ${total} ${query.mode === 'content' ? 'lines' : 'entries'}; raise head_limit to see more)`);
  if (body.length > MAX_OUTPUT_CHARS) {
    body = body.slice(0, body.lastIndexOf('\n', MAX_OUTPUT_CHARS));
    notes.push('(output cut at 30,000 characters: narrow the search with path, glob, type or head_limit)');
  }
  const head = summary ? `${summary}\n` : '';
  return { text: `${head}${body}${notes.length ? `\n${notes.join('\n')}` : ''}`, count: found.length };
}

function contentLines(found: GrepFile[], query: GrepQuery, show: (path: string) => string): string[] {
  const out: string[] = [];
  const withContext = query.before > 0 || query.after > 0;
  for (const file of found) {
    const name = show(file.path);
    let previous = -1;
    for (const { line, text, match } of file.lines) {
      if (withContext && out.length && line !== previous + 1) out.push('--');
      const sep = match ? ':' : '-';
      out.push(query.lineNumbers ? `${name}${sep}${line}${sep}${clip(text)}` : `${name}${sep}${clip(text)}`);
      previous = line;
    }
  }
  return out;
}
