import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import picomatch from 'picomatch';

/**
 * The folder a glob pattern is anchored in (its fixed prefix: `/home/u/.ssh` of `/home/u/.ssh/*`,
 * `../..` of `../../**`, `~/.ssh` of `~/.ssh/*`) and the part matched below it. The prefix is a
 * path like any other: the policy judges it and the worker checks where it really is.
 */
export function splitGlob(pattern: string): { base: string; glob: string } {
  const normalized = pattern.replace(/\\/g, '/');
  const scan = picomatch.scan(normalized);
  return scan.isGlob ? { base: scan.base, glob: scan.glob } : { base: '', glob: normalized };
}

/** The path-like part of a glob the policy must judge: its prefix under `folder`, or undefined for a plain in-folder pattern. */
export function globReach(pattern: string, folder: string): string | undefined {
  const negated = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  const normalized = negated.replace(/\\/g, '/');
  const scan = picomatch.scan(normalized);
  const base = scan.isGlob ? scan.base : normalized;
  if (!base) return undefined;
  if (base === '~' || base.startsWith('~') || isAbsolute(base)) return base;
  return folder === '.' ? base : join(folder, base);
}

/** Why a glob's matched part could reach above its folder (`..`), or undefined. */
export function climbsOut(glob: string): boolean {
  return glob.split('/').includes('..');
}

/** `~/x` with the home folder put in, as a shell would; `~user` forms are not supported. */
export function expandHome(pattern: string): string | undefined {
  if (pattern === '~' || pattern.startsWith('~/')) return homedir() + pattern.slice(1);
  if (pattern.startsWith('~')) return undefined;
  return pattern;
}
