import { spawn, spawnSync } from 'node:child_process';
import { findOnPath } from '../../core/kits/fs/index.js';
import type { WorkerContext } from '../../core/kits/tool/index.js';
import type { GrepFile, GrepQuery } from './grep-query.js';

let available: boolean | undefined;
/** The `rg` PATH found, run by its path: by name, the child tried every folder of PATH before it. */
let program = 'rg';

/**
 * True when PATH has an executable `rg` (looked up once per worker). A lookup, not a run of
 * `rg --version`: that cost a process on every thread's first search. Windows resolves PATHEXT, so
 * there ripgrep is still asked. An `rg` that then fails to start sends the search to the scanner
 * (ripgrepDidNotStart).
 */
export function ripgrepAvailable(cwd: string): boolean {
  if (process.platform === 'win32') available ??= spawnSync('rg', ['--version'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  if (available === undefined) {
    // Relative and empty PATH entries resolve against the directory rg starts in, as for execvp.
    const found = findOnPath('rg', { cwd });
    if (found) program = found;
    available = found !== undefined;
  }
  return available;
}

/** True when `error` is ripgrep failing to start (missing, not executable): the scanner takes over from now on. */
export function ripgrepDidNotStart(error: unknown): boolean {
  const failed = typeof (error as { syscall?: unknown })?.syscall === 'string' && (error as { syscall: string }).syscall.startsWith('spawn');
  if (failed) available = false;
  return failed;
}

/**
 * The flags that make ripgrep walk the tree the way the built-in scanner does: hidden files in,
 * `.git` out, only .gitignore files (also outside a git repository), no user config.
 */
function ripgrepArgs(query: GrepQuery): string[] {
  const args = ['--no-config', '--color=never', '--no-messages', '--null', '--with-filename', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-exclude', '--no-ignore-global', '--glob', '!.git'];
  if (query.ignoreCase) args.push('--ignore-case');
  if (query.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (query.mode === 'count') args.push('--count');
  else {
    args.push('--line-number');
    if (query.before) args.push('--before-context', String(query.before));
    if (query.after) args.push('--after-context', String(query.after));
  }
  for (const glob of query.globs) args.push('--glob', glob);
  if (query.typeGlobs.length) {
    for (const glob of query.typeGlobs) args.push('--type-add', `assistant:${glob}`);
    args.push('--type', 'assistant');
  }
  args.push('--regexp', query.pattern, '--', query.root);
  return args;
}

/** Parses ripgrep's NUL-separated output into files (content: `path\0N:text` / `path\0N-text`; count: `path\0N`). */
class OutputParser {
  readonly files = new Map<string, GrepFile>();
  private rest = '';

  constructor(private readonly mode: GrepQuery['mode']) {}

  push(chunk: string): void {
    const data = this.rest + chunk;
    const separator = this.mode === 'files_with_matches' ? '\0' : '\n';
    const parts = data.split(separator);
    this.rest = parts.pop()!;
    for (const part of parts) this.line(part);
  }

  end(): void {
    if (this.rest) this.line(this.rest);
    this.rest = '';
  }

  private line(raw: string): void {
    if (this.mode === 'files_with_matches') {
      if (raw) this.files.set(raw, { path: raw, count: 1, lines: [] });
      return;
    }
    const nul = raw.indexOf('\0');
    if (nul < 0) return; // `--` between context groups: the formatter makes its own.
    const path = raw.slice(0, nul);
    const rest = raw.slice(nul + 1);
    let file = this.files.get(path);
    if (!file) {
      file = { path, count: 0, lines: [] };
      this.files.set(path, file);
    }
    if (this.mode === 'count') {
      file.count = Number(rest);
      return;
    }
    const m = /^(\d+)([:-])/.exec(rest);
    if (!m) return;
    const match = m[2] === ':';
    if (match) file.count++;
    file.lines.push({ line: Number(m[1]), text: rest.slice(m[0].length), match });
  }
}

/** Runs ripgrep for `query`; rejects with ripgrep's message when it fails (a bad regex, say). */
export function searchWithRipgrep(query: GrepQuery, context: WorkerContext): Promise<GrepFile[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, ripgrepArgs(query), { cwd: query.projectRoot, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    if (child.pid) context.trackProcess(child.pid);
    const parser = new OutputParser(query.mode);
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => parser.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const onAbort = () => child.kill('SIGKILL');
    context.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      context.signal.removeEventListener('abort', onAbort);
      if (context.signal.aborted) return reject(new Error('cancelled'));
      if (code === 2 && parser.files.size === 0) return reject(new Error(stderr.trim() || 'ripgrep failed'));
      parser.end();
      resolve([...parser.files.values()]);
    });
  });
}
