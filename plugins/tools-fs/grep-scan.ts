import { readFileSync, statSync } from 'node:fs';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { decodeText } from './file-io.js';
import { expandBraces, type GrepFile, type GrepLine, type GrepQuery } from './grep-query.js';
import { walk, type Override } from './walk.js';

/**
 * The `--glob` and `type` filters as ripgrep applies them: a matching glob includes a file even
 * when .gitignore would skip it, `!glob` excludes, a file no glob includes is out once any plain
 * glob is given, and the type filter applies only to files no glob decided.
 */
export function filterOverride(query: GrepQuery): Override | undefined {
  if (!query.globs.length && !query.typeGlobs.length) return undefined;
  // In gitignore terms a ripgrep include is a re-include (`!g`) and an exclude is an ignore (`g`).
  const flipped = query.globs.flatMap(expandBraces).map((g) => (g.startsWith('!') ? g.slice(1) : `!${g}`));
  const rules = flipped.length ? ignore().add(flipped) : undefined;
  const hasIncludes = query.globs.some((g) => !g.startsWith('!'));
  const isType = query.typeGlobs.length ? picomatch(query.typeGlobs.flatMap(expandBraces), { dot: true, basename: true }) : undefined;
  return (rel, isDirectory) => {
    const verdict = rules?.test(isDirectory ? `${rel}/` : rel);
    if (verdict?.unignored) return 'include';
    if (verdict?.ignored) return 'exclude';
    if (isDirectory) return undefined;
    if (hasIncludes) return 'exclude';
    if (isType && !isType(rel)) return 'exclude';
    return undefined;
  };
}

/** The files the scanner searches under `query.root` (a single file is searched as given). */
export function filesToScan(query: GrepQuery): string[] {
  if (statSync(query.root).isFile()) return [query.root];
  const files: string[] = [];
  for (const entry of walk(query.root, { projectRoot: query.projectRoot, override: filterOverride(query) })) files.push(entry.path);
  return files;
}

function decode(bytes: Buffer): string | undefined {
  const hasBom = (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (hasBom) return decodeText(bytes).text;
  // ripgrep skips a file once it meets a NUL byte (binary); it reports other bytes as they are.
  if (bytes.includes(0)) return undefined;
  return bytes.toString('utf8');
}

/** Searches one file the way ripgrep does: line by line, with context lines merged. */
export function scanFile(path: string, query: GrepQuery, whole: RegExp, line: RegExp): GrepFile | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const text = decode(bytes);
  if (text === undefined) return undefined;
  whole.lastIndex = 0;
  if (!whole.test(text)) return undefined;
  if (query.mode === 'files_with_matches') return { path, count: 1, lines: [] };
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const matches: number[] = [];
  for (let i = 0; i < lines.length; i++) if (line.test(lines[i]!)) matches.push(i);
  if (!matches.length) return undefined;
  if (query.mode === 'count') return { path, count: matches.length, lines: [] };
  const out: GrepLine[] = [];
  const isMatch = new Set(matches);
  let next = 0;
  for (const m of matches) {
    for (let i = Math.max(next, m - query.before); i <= Math.min(lines.length - 1, m + query.after); i++) {
      out.push({ line: i + 1, text: lines[i]!, match: isMatch.has(i) });
      next = i + 1;
    }
  }
  return { path, count: matches.length, lines: out };
}

/** The regular expressions of a query: one to reject whole files fast, one per line. Throws on a bad pattern. */
export function compilePattern(query: GrepQuery): { whole: RegExp; line: RegExp } {
  const flags = query.ignoreCase ? 'i' : '';
  return { whole: new RegExp(query.pattern, `gm${flags}`), line: new RegExp(query.pattern, flags) };
}

/** Scans `files` in order. */
export function scanFiles(files: readonly string[], query: GrepQuery, shouldStop: () => boolean): GrepFile[] {
  const { whole, line } = compilePattern(query);
  const found: GrepFile[] = [];
  for (let i = 0; i < files.length; i++) {
    if (i % 512 === 0 && shouldStop()) break;
    const hit = scanFile(files[i]!, query, whole, line);
    if (hit) found.push(hit);
  }
  return found;
}
