import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** What the word under the cursor can be completed to. */
export interface CompletionContext {
  kind: 'command' | 'file';
  /** The typed fragment, without its `/` or `@`. */
  fragment: string;
  /** Where the word (with its `/` or `@`) starts and ends in the text. */
  start: number;
  end: number;
}

/** One suggestion: what to insert and what to show beside it. */
export interface Suggestion {
  value: string;
  label: string;
  detail?: string;
}

/** Finds a `/command` at the start of the input or an `@path` word under the cursor. */
export function completionContext(text: string, cursor: number): CompletionContext | undefined {
  const before = text.slice(0, cursor);
  if (/^\/[\w:-]*$/.test(before)) {
    const end = cursor + (/^[\w:-]*/.exec(text.slice(cursor))?.[0].length ?? 0);
    return { kind: 'command', fragment: before.slice(1), start: 0, end };
  }
  const at = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (at) {
    const end = cursor + (/^[^\s]*/.exec(text.slice(cursor))?.[0].length ?? 0);
    return { kind: 'file', fragment: at[1]!, start: cursor - at[1]!.length - 1, end };
  }
  return undefined;
}

/** Commands whose name starts with the fragment, then those that contain it. */
export function matchCommands(fragment: string, commands: Array<{ name: string; description: string; usage?: string }>): Suggestion[] {
  const f = fragment.toLowerCase();
  const ranked = commands
    .map((c) => ({ c, rank: c.name.toLowerCase().startsWith(f) ? 0 : c.name.toLowerCase().includes(f) ? 1 : 2 }))
    .filter((r) => r.rank < 2)
    .sort((a, b) => a.rank - b.rank || a.c.name.localeCompare(b.c.name));
  return ranked.map(({ c }) => ({ value: `/${c.name}`, label: `/${c.name}${c.usage ? ` ${c.usage}` : ''}`, detail: c.description }));
}

/** Folders never worth suggesting: dependencies, build output, VCS internals. */
const SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', 'dist', 'build', 'coverage', 'target', '.venv', 'venv', '__pycache__', '.next', '.cache']);

/** A folder's files (the project's, an added folder's), listed once on first use (in the background) for `@` completion. */
export class FileIndex {
  private files: string[] | undefined;
  private loading: Promise<string[]> | undefined;

  constructor(
    private readonly root: string,
    private readonly limit = 20_000,
    /** Put before each path: the folder's own path for an added folder, whose files complete by full path. */
    private readonly prefix = '',
  ) {}

  /** Paths relative to the root, folders ending in `/`; empty until the first listing is done. */
  get ready(): readonly string[] | undefined {
    return this.files;
  }

  load(): Promise<string[]> {
    this.loading ??= this.walk().then((files) => (this.files = files));
    return this.loading;
  }

  private async walk(): Promise<string[]> {
    const out: string[] = [];
    const queue = [this.root];
    while (queue.length && out.length < this.limit) {
      const dir = queue.shift()!;
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        const full = join(dir, entry.name);
        const rel = this.prefix + relative(this.root, full).split('\\').join('/');
        if (entry.isDirectory()) {
          if (SKIP_DIRS.has(entry.name)) continue;
          out.push(rel + '/');
          queue.push(full);
        } else if (entry.isSymbolicLink() && (await isDirectory(full))) {
          // A linked folder completes as a folder (no space after it) but is not walked: links can loop.
          out.push(rel + '/');
        } else out.push(rel);
        if (out.length >= this.limit) break;
      }
    }
    return out;
  }
}

const isDirectory = (path: string) => stat(path).then((s) => s.isDirectory(), () => false);

/** Ranks paths for a fragment: file-name prefix, path prefix, file-name substring, path substring; shorter first. */
export function matchFiles(fragment: string, files: readonly string[], max = 8): Suggestion[] {
  const f = fragment.toLowerCase();
  const scored: Array<{ path: string; score: number }> = [];
  for (const path of files) {
    const lower = path.toLowerCase();
    const trimmed = lower.endsWith('/') ? lower.slice(0, -1) : lower;
    const base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
    const score = base.startsWith(f) ? 0 : lower.startsWith(f) ? 1 : base.includes(f) ? 2 : lower.includes(f) ? 3 : -1;
    if (score >= 0) scored.push({ path, score });
  }
  scored.sort((a, b) => a.score - b.score || a.path.length - b.path.length || a.path.localeCompare(b.path));
  return scored.slice(0, max).map(({ path }) => ({ value: `@${path}`, label: `@${path}` }));
}
