import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, parse, relative, resolve } from 'node:path';

/** File systems that ignore case (macOS, Windows): paths compare case-insensitively there. */
export const CASE_INSENSITIVE = process.platform === 'darwin' || process.platform === 'win32';

/** Why a path cannot be judged, or undefined when it is well formed. */
export function malformedPath(path: unknown): string | undefined {
  if (typeof path !== 'string') return `a path must be a string (got ${path === null ? 'null' : typeof path})`;
  if (!path.length) return 'a path is empty';
  if (path.includes('\0')) return 'a path contains a NUL byte';
  if (path.length > 4096) return 'a path is longer than 4096 characters';
  if (/[\u0001-\u001f]/.test(path)) return 'a path contains control characters';
  if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(path)) return 'a path is not valid Unicode';
  return undefined;
}

const MAX_LINKS = 40;

/**
 * The real location of a path: every symlink on the way resolved, including a last component that
 * is a dangling link (writing through it would create the target). Parts that do not exist yet
 * are kept as written below the real parent.
 */
export function realPath(absolute: string): string {
  let current = resolve(absolute);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    try {
      return realpathSync.native(current);
    } catch {
      // Does the path itself exist as a (dangling) link? Follow it by hand.
      try {
        if (lstatSync(current).isSymbolicLink()) {
          const target = readlinkSync(current);
          current = isAbsolute(target) ? resolve(target) : resolve(dirname(current), target);
          continue;
        }
      } catch {
        // Missing: resolve the parent and keep the rest as written.
      }
      const { root } = parse(current);
      if (current === root) return current;
      return join(realPath(dirname(current)), basename(current));
    }
  }
  return current;
}

/** True when resolving `absolute` runs into a loop of symlinks (ELOOP): such a path fails closed. */
export function isSymlinkLoop(absolute: string): boolean {
  try {
    realpathSync.native(absolute);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ELOOP';
  }
}

/** How many hard links the regular file at `real` has (1 when it is not one, or missing). */
export function hardLinks(real: string): number {
  try {
    const stats = lstatSync(real);
    return stats.isFile() ? stats.nlink : 1;
  } catch {
    return 1;
  }
}

/** True when `path` is `root` or below it (both absolute and resolved). */
export function isWithin(path: string, root: string): boolean {
  const a = CASE_INSENSITIVE ? path.toLowerCase() : path;
  const b = CASE_INSENSITIVE ? root.toLowerCase() : root;
  if (a === b) return true;
  const rel = relative(b, a);
  return !!rel && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Resolves `path` against `cwd` (tilde → home), then follows symlinks. */
export function resolveFrom(cwd: string, path: string, home: string | null): { absolute: string; real: string } | undefined {
  let expanded = path;
  if (path === '~' || path.startsWith('~/')) {
    if (home === null) return undefined;
    expanded = home + path.slice(1);
  } else if (path.startsWith('~')) return undefined;
  const absolute = resolve(cwd, expanded);
  return { absolute, real: realPath(absolute) };
}

const rootCache = new Map<string, string>();

/** The project root with symlinks resolved (cached: it does not move during a run). */
export function realRoot(projectRoot: string): string {
  let real = rootCache.get(projectRoot);
  if (!real) {
    try {
      real = realpathSync.native(projectRoot);
    } catch {
      real = resolve(projectRoot);
    }
    rootCache.set(projectRoot, real);
  }
  return real;
}
