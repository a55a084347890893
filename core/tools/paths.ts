import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ToolError } from '../kernel/errors.js';

/** Most symlinks followed while resolving one path, as the OS allows (ELOOP past it). */
const MAX_LINKS = 40;

/**
 * Resolves a path a tool was given to an absolute, symlink-free path. Relative paths are taken
 * from `base` (the project root). Missing trailing parts are kept as given (a file about to be
 * created), but every existing part, dangling links included, is resolved, so a check on the
 * result sees where a write would really land. Throws ASSISTANT_TOOL_PATH_INVALID for a value no
 * file system accepts.
 */
export function resolveToolPath(raw: unknown, base: string, field = 'path'): string {
  if (typeof raw !== 'string') throw new ToolError('ASSISTANT_TOOL_PATH_INVALID', `${field} must be a string path`);
  if (raw.length === 0) throw new ToolError('ASSISTANT_TOOL_PATH_INVALID', `${field} is empty: give a file path (absolute or relative to the project root)`);
  if (raw.includes('\0')) throw new ToolError('ASSISTANT_TOOL_PATH_INVALID', `${field} contains a NUL byte, which no file name can hold`);
  if (raw.length > 4096) throw new ToolError('ASSISTANT_TOOL_PATH_INVALID', `${field} is ${raw.length} characters long; paths are limited to 4096`);
  return realPath(isAbsolute(raw) ? resolve(raw) : resolve(base, raw));
}

/** The real path of `path`: symlinks resolved for every existing part, the rest appended. */
export function realPath(path: string, depth = 0): string {
  try {
    return realpathSync.native(path);
  } catch {
    // Not all of it exists (or a link dangles): resolve the parent, then this part.
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = realPath(parent, depth);
  const joined = join(realParent, basename(path));
  try {
    if (lstatSync(joined).isSymbolicLink() && depth < MAX_LINKS) return realPath(resolve(realParent, readlinkSync(joined)), depth + 1);
  } catch {
    // Missing: keep the name as given.
  }
  return joined;
}

/** True when `path` is `root` or inside it. Both must be absolute and resolved. */
export function isInside(path: string, root: string): boolean {
  if (path === root) return true;
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** A path for people and the model: relative to the project root when inside it, absolute otherwise. */
export function displayPath(path: string, projectRoot: string): string {
  if (path === projectRoot) return '.';
  return isInside(path, projectRoot) ? relative(projectRoot, path).split(sep).join('/') : path;
}

/**
 * Characters that make a file name lie about itself on a terminal: C0 and C1 controls, and the
 * bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069), marks (U+200E/F, U+061C)
 * that can show `txt.exe` as `exe.txt`.
 */
const DECEPTIVE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const DECEPTIVE_CHARS_ALL = new RegExp(DECEPTIVE_CHARS.source, 'gu');

/** True when `name` holds control or bidirectional-formatting characters. */
export function hasDeceptiveChars(name: string): boolean {
  return DECEPTIVE_CHARS.test(name);
}

/** `name` with every control and bidi character shown as `\u{…}`, so what a person reads is what is there. */
export function escapeDeceptive(name: string): string {
  return name.replace(DECEPTIVE_CHARS_ALL, (c) => `\\u{${c.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
}
