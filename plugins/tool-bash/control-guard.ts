/**
 * The second line behind control-mounts.ts, run in the worker around each sandboxed command: the
 * state of every control path (and of the folders leading to it) is taken before the command and
 * compared after. What appeared is removed, a file that changed gets its old content back, and the
 * command's result becomes an error that names each path, so the model sees the change was undone.
 * It covers what a bind cannot: control files that did not exist yet (`.assistantrc`,
 * `.assistant/settings.local.json`, `.mcp.json`), and symlinks swapped for files.
 */
import { lstatSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ControlEntry } from './control-mounts.js';

/** Files larger than this are compared by identity and size only (control files are small). */
const MAX_KEPT_BYTES = 1 << 20;

interface PathState {
  kind: 'missing' | 'file' | 'dir' | 'symlink' | 'other';
  ino?: number;
  dev?: number;
  size?: number;
  mode?: number;
  content?: Buffer;
  target?: string;
}

/** Whether a JSON file's content has `key` at the top (how the config loader takes package.json). */
function hasKey(content: Buffer | undefined, key: string): boolean {
  try {
    const value = content ? (JSON.parse(content.toString('utf8')) as unknown) : undefined;
    return !!value && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key);
  } catch {
    return false;
  }
}

/** The file's content through symlinks, as the loader would read it, whatever its size. */
function readIfAny(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

export interface ControlChange {
  path: string;
  why: string;
  /** What the command did, in words. */
  what: string;
  /** Whether the old state is back. */
  restored: boolean;
}

function stateOf(path: string): PathState {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return { kind: 'missing' };
  }
  const base = { ino: stat.ino, dev: stat.dev, mode: stat.mode & 0o7777, size: stat.size };
  if (stat.isSymbolicLink()) return { kind: 'symlink', ...base, target: readlinkSync(path) };
  if (stat.isDirectory()) return { kind: 'dir', ...base, size: undefined };
  if (!stat.isFile()) return { kind: 'other', ...base };
  let content: Buffer | undefined;
  try {
    if (stat.size <= MAX_KEPT_BYTES) content = readFileSync(path);
  } catch {
    // Unreadable: judged by identity and size.
  }
  return { kind: 'file', ...base, content };
}

function same(a: PathState, b: PathState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'missing') return true;
  if (a.ino !== b.ino || a.dev !== b.dev) return false;
  // A folder is judged by identity only: what else it holds is the user's work.
  if (a.kind === 'dir') return true;
  if (a.mode !== b.mode) return false;
  if (a.kind === 'symlink') return a.target === b.target;
  if (a.kind === 'file') return a.size === b.size && (!a.content || !b.content || a.content.equals(b.content));
  return true;
}

/** The nearest folder above `path` that exists, as named and as resolved: the guard touches nothing if the way there changed. */
interface Anchor {
  dir: string;
  real: string;
}

function anchorOf(path: string): Anchor | undefined {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    try {
      return { dir, real: realpathSync.native(dir) };
    } catch {
      if (dirname(dir) === dir) return undefined;
    }
  }
}

/**
 * Makes sure undoing at `path` stays where it was meant to: the anchor still resolves as before, and
 * a folder the command made on the way that is a symlink (`.git -> /somewhere`) is removed itself
 * rather than followed. Returns false when nothing may be touched.
 */
function wayIsSafe(path: string, anchor: Anchor | undefined): boolean {
  if (!anchor) return false;
  try {
    if (realpathSync.native(anchor.dir) !== anchor.real) return false;
  } catch {
    return false;
  }
  let dir = anchor.dir;
  for (const part of relative(anchor.dir, dirname(path)).split(sep).filter(Boolean)) {
    dir = join(dir, part);
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    if (!stat) return true; // nothing below exists
    // Made by the command (it did not exist before): a link or file here is removed, not followed.
    if (!stat.isDirectory()) {
      rmSync(dir, { force: true });
      return true;
    }
  }
  return true;
}

/** Puts `before` back at `path`; false when it cannot (a folder that went away, a way that changed). */
function restore(path: string, before: PathState, anchor: Anchor | undefined): boolean {
  try {
    if (!wayIsSafe(path, anchor)) return false;
    if (before.kind === 'missing') {
      rmSync(path, { recursive: true, force: true });
      return true;
    }
    if (before.kind === 'file' && before.content) {
      rmSync(path, { recursive: true, force: true });
      writeFileSync(path, before.content, { mode: before.mode });
      return true;
    }
    if (before.kind === 'symlink' && before.target !== undefined) {
      rmSync(path, { recursive: true, force: true });
      symlinkSync(before.target, path);
      return true;
    }
  } catch {
    // Reported as not restored.
  }
  return false;
}

const KIND_WORDS: Record<PathState['kind'], string> = { missing: 'nothing', file: 'a file', dir: 'a folder', symlink: 'a symlink', other: 'a special file' };
const describe = (before: PathState, after: PathState) =>
  before.kind === 'missing' ? `created it (${KIND_WORDS[after.kind]})` : after.kind === 'missing' ? 'removed it' : before.kind !== after.kind ? `replaced it with ${KIND_WORDS[after.kind]}` : 'changed it';

/** The state of the control paths now; `check` compares, undoes and lists the changes. */
export function watchControlPaths(controls: readonly ControlEntry[]): { check(): ControlChange[] } {
  // Folders on the way count too: a swapped `.git` steers git as much as a rewritten `.git/config`.
  const watched = new Map<string, { why: string; before: PathState; anchor?: Anchor; whileKey?: string }>();
  for (const control of controls) {
    // Folders that do not exist yet are left alone (a new ~/.cache is not the agent's): the control path below is watched.
    for (let dir = dirname(control.path); dir !== dirname(dir) && !watched.has(dir); dir = dirname(dir)) {
      const before = stateOf(dir);
      if (before.kind !== 'missing') watched.set(dir, { why: `it leads to ${control.path} (${control.why})`, before, anchor: anchorOf(dir) });
    }
    watched.set(control.path, { why: control.why, before: stateOf(control.path), anchor: anchorOf(control.path), whileKey: control.whileKey });
  }
  return {
    check() {
      const changes: ControlChange[] = [];
      // Shallow first: restoring a folder's absence removes whatever was made inside it.
      const order = [...watched].sort(([a], [b]) => a.length - b.length);
      const undone = new Set<string>();
      for (const [path, { why, before, anchor, whileKey }] of order) {
        if ([...undone].some((u) => path.startsWith(`${u}/`))) continue;
        const after = stateOf(path);
        if (same(before, after)) continue;
        // package.json may change (npm install); it may not start steering the agent.
        if (whileKey && !hasKey(readIfAny(path), whileKey)) continue;
        const restored = restore(path, before, anchor);
        if (restored && before.kind === 'missing') undone.add(path);
        const what = whileKey ? `gave it an "${whileKey}" key, which makes it ${why}` : describe(before, after);
        changes.push({ path, why, what, restored });
      }
      return changes;
    },
  };
}

/** What the model is told when a command touched the agent's control files. */
export function controlReport(changes: ControlChange[]): string {
  const lines = changes.map((c) => `- ${c.path}: the command ${c.what}${c.restored ? '; undone' : '; it could NOT be undone, tell the user'} (${c.why})`);
  return [
    'The command changed files that steer the agent itself, which sandboxed commands may not do:',
    ...lines,
    'Do not try another way: if the change is wanted, ask the user to make it (or to edit the file with the Edit tool, which asks them).',
  ].join('\n');
}
