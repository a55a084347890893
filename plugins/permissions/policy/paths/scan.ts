import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, parse, sep } from 'node:path';
import picomatch from 'picomatch';

const GLOB_CHARS = /[*?[]/;
const MAX_MATCHES = 2000;
/** Entries a secret scan looks at before it gives up (and proves nothing): a large tree asks rather than passes. */
const MAX_SCANNED = 20_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/**
 * Expands a shell glob against the file system, as bash would (`*` skips dot files unless the
 * pattern starts with a dot). Returns undefined when a directory cannot be listed or there are
 * too many matches to check one by one.
 */
export function expandGlob(absolutePattern: string): string[] | undefined {
  const { root } = parse(absolutePattern);
  const segments = absolutePattern.slice(root.length).split(sep).filter(Boolean);
  let current = [root];
  for (const segment of segments) {
    if (!GLOB_CHARS.test(segment)) {
      current = current.map((dir) => join(dir, segment));
      continue;
    }
    const match = picomatch(segment, { dot: segment.startsWith('.') });
    const next: string[] = [];
    for (const dir of current) {
      let entries: string[];
      try {
        entries = readdirSync(dir);
      } catch {
        return undefined;
      }
      for (const entry of entries) if (match(entry)) next.push(join(dir, entry));
      if (next.length > MAX_MATCHES) return undefined;
    }
    current = next;
  }
  return current;
}

/** True when `path` has unquoted glob characters. */
export function hasGlob(path: string): boolean {
  return GLOB_CHARS.test(path);
}

/** What a scan for secrets below a directory found: the first secret, or that it could not look at everything. */
export interface SecretScan {
  found?: string;
  /** The scan stopped at its limit before it had seen every entry: a secret may lie beyond it. */
  incomplete?: boolean;
}

const scanCache = new Map<string, { at: number; result: SecretScan }>();
const SCAN_TTL_MS = 2000;

/**
 * The first secret below `dir` (what `grep -r` or `cp -r` would read), symlinks checked by their
 * target. node_modules and .git are skipped; with `skipHidden`, so are names starting with a dot
 * and symlinks (what rg and ag skip by default). A scan that hits its limit says so: it proves nothing.
 */
export function secretBelow(dir: string, isSecret: (path: string) => string | undefined, excludes: string[] = [], options: { skipHidden?: boolean } = {}): SecretScan {
  const key = `${dir}\0${options.skipHidden ? 'h' : ''}\0${excludes.join('\0')}`;
  const cached = scanCache.get(key);
  if (cached && Date.now() - cached.at < SCAN_TTL_MS) return cached.result;
  const excluded = excludes.length ? picomatch(excludes, { dot: true }) : () => false;
  let found: string | undefined;
  let scanned = 0;
  const queue = [dir];
  try {
    if (!statSync(dir).isDirectory()) queue.length = 0;
  } catch {
    queue.length = 0;
  }
  while (queue.length && !found && scanned < MAX_SCANNED) {
    const current = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      scanned++;
      const path = join(current, entry.name);
      // rg and ag by default skip hidden names and do not follow symlinks.
      if (excluded(entry.name) || (options.skipHidden && (entry.name.startsWith('.') || entry.isSymbolicLink()))) continue;
      if (isSecret(path)) {
        found = path;
        break;
      }
      if (entry.isSymbolicLink()) {
        try {
          const target = realpathSync.native(path);
          if (isSecret(target)) {
            found = path;
            break;
          }
        } catch {
          // A dangling link reads nothing.
        }
      } else if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) queue.push(path);
    }
  }
  // Stopped with folders still queued: the limit cut the scan short.
  const result: SecretScan = found ? { found } : queue.length ? { incomplete: true } : {};
  scanCache.set(key, { at: Date.now(), result });
  return result;
}
