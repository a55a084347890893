/** One replacement, as Edit and MultiEdit take it. */
export interface TextEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** The text after an edit, or why the edit cannot be applied. */
export type EditOutcome = { text: string; replacements: number } | { error: string; tooLarge?: boolean };

/** Files past this size get no "closest match" hint (it is not worth the time). */
const HINT_MAX_CHARS = 1_000_000;

function countOccurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/** Applies one edit to `text`. Line endings follow the file's: LF in the edit matches CRLF on disk. */
export function applyEdit(text: string, edit: TextEdit, maxChars = Infinity): EditOutcome {
  let { old_string: search, new_string: replacement } = edit;
  if (search === replacement) return { error: 'old_string and new_string are the same, so there is nothing to change.' };
  if (search === '') return { error: 'old_string is empty; give the exact text to replace (or use Write to replace the whole file).' };
  if (text.includes('\r\n') && !search.includes('\r\n') && search.includes('\n')) {
    search = search.replace(/\n/g, '\r\n');
    replacement = replacement.replace(/\r?\n/g, '\r\n');
  }
  const count = countOccurrences(text, search);
  if (count === 0) return { error: `old_string was not found in the file.${closestHint(text, search)}` };
  if (count > 1 && !edit.replace_all)
    return { error: `old_string appears ${count} times in the file: add surrounding lines to make it unique, or set replace_all to change every one.` };
  // Checked before the new text is built: replace_all of a short string can multiply a file's size.
  const grown = text.length + (edit.replace_all ? count : 1) * (replacement.length - search.length);
  if (grown > maxChars) return { error: `the edited file would be ${grown} characters, over the ${maxChars}-character limit (tools-fs option maxWriteBytes).`, tooLarge: true };
  return { text: edit.replace_all ? text.split(search).join(replacement) : text.replace(search, () => replacement), replacements: count > 1 ? count : 1 };
}

/** A cheap pointer to where the model probably meant: same lines modulo indentation, else the most similar line. */
function closestHint(text: string, search: string): string {
  if (text.length > HINT_MAX_CHARS) return ' Read the file again and copy the text exactly.';
  const lines = text.split(/\r?\n/);
  const wanted = search.split(/\r?\n/).map((l) => l.trim());
  while (wanted.length && wanted[wanted.length - 1] === '') wanted.pop();
  if (!wanted.length) return '';
  const trimmed = lines.map((l) => l.trim());
  for (let i = 0; i + wanted.length <= trimmed.length; i++)
    if (wanted.every((w, j) => trimmed[i + j] === w))
      return ` The same lines with different indentation or whitespace are at line ${i + 1}: copy them exactly (tabs and spaces) from a fresh Read.`;
  const first = wanted.find((w) => w.length > 0) ?? '';
  let best = { line: -1, score: 0 };
  for (let i = 0; i < trimmed.length; i++) {
    const score = similarity(first, trimmed[i]!);
    if (score > best.score) best = { line: i, score };
  }
  if (best.line < 0 || best.score < 0.5) return ' Read the file again and copy the text exactly.';
  const preview = lines[best.line]!.length > 120 ? `${lines[best.line]!.slice(0, 117)}...` : lines[best.line]!;
  return ` The closest line is ${best.line + 1}: ${JSON.stringify(preview)}. Read around it and copy the text exactly.`;
}

/** Dice coefficient over character pairs: 1 for equal strings, near 0 for unrelated ones. */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const pair = a.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const left = pairs.get(pair) ?? 0;
    if (left > 0) {
      shared++;
      pairs.set(pair, left - 1);
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}

/** Lines of context shown around a change, and the most changed lines shown on each side. */
const CONTEXT = 3;
const MAX_SIDE = 20;

function lines(text: string): string[] {
  const all = text.split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === '') all.pop();
  return all;
}

/** Where two versions differ: the common head and tail trimmed, as line indexes into each. */
function changedRegion(before: string, after: string): { a: string[]; b: string[]; start: number; endA: number; endB: number } {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length - 1;
  let endB = b.length - 1;
  while (endA >= start && endB >= start && a[endA] === b[endB]) {
    endA--;
    endB--;
  }
  return { a, b, start, endA, endB };
}

/** How many lines the change removed and added (the region the snippet shows, counted whole). */
export function changeStats(before: string, after: string): { added: number; removed: number } {
  const { start, endA, endB } = changedRegion(before, after);
  return { added: endB - start + 1, removed: endA - start + 1 };
}

/** A small unified-style snippet of what changed between two versions, with line numbers. */
export function diffSnippet(before: string, after: string): string {
  const { a, b, start, endA, endB } = changedRegion(before, after);
  const out: string[] = [];
  const from = Math.max(0, start - CONTEXT);
  for (let i = from; i < start; i++) out.push(`${i + 1}   ${a[i]}`);
  const side = (lines: string[], first: number, last: number, mark: string) => {
    for (let i = first; i <= last && i < first + MAX_SIDE; i++) out.push(`${i + 1} ${mark} ${lines[i]}`);
    if (last - first + 1 > MAX_SIDE) out.push(`… ${last - first + 1 - MAX_SIDE} more ${mark === '-' ? 'removed' : 'added'} lines`);
  };
  side(a, start, endA, '-');
  side(b, start, endB, '+');
  for (let i = endB + 1; i <= Math.min(b.length - 1, endB + CONTEXT); i++) out.push(`${i + 1}   ${b[i]}`);
  return out.join('\n');
}
