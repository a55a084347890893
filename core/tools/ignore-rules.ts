import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isInside } from './paths.js';

/** Folders never watched: too busy (dependencies) or not the user's files (git's own). */
const ALWAYS_IGNORED = new Set(['.git', 'node_modules']);

/** Which paths of a project the file watcher leaves out. */
export interface WatchRules {
  /** True for paths outside the project, under .git or node_modules, or matched by the root .gitignore. */
  ignored(path: string, isDirectory?: boolean): boolean;
  /** Re-reads the root .gitignore (after it changed). */
  reload(): void;
}

/** The watch rules of `projectRoot` (its root .gitignore; nested ones are not consulted). */
export function watchRules(projectRoot: string): WatchRules {
  // Read at the first question (a watch starts with the first cached read): a run that caches nothing never parses it.
  let rules: Ignore | undefined;
  return {
    ignored(path, isDirectory) {
      if (!isInside(path, projectRoot)) return true;
      const rel = relative(projectRoot, path);
      if (!rel) return false;
      const parts = rel.split(sep);
      if (parts.some((part) => ALWAYS_IGNORED.has(part))) return true;
      const posix = parts.join('/');
      return (rules ??= load(projectRoot)).ignores(posix) || (isDirectory !== false && rules.ignores(`${posix}/`));
    },
    reload() {
      rules = undefined;
    },
  };
}

function load(projectRoot: string): Ignore {
  const rules = ignore();
  try {
    rules.add(readFileSync(join(projectRoot, '.gitignore'), 'utf8'));
  } catch {
    // No .gitignore: only the fixed folders are skipped.
  }
  return rules;
}
