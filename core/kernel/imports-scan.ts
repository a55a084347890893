import { readFileSync, realpathSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';

/** Files of a module's own relative graph read at most, and bytes read of each. */
const MAX_FILES = 64;
const MAX_BYTES = 1 << 20;
const BUILTINS = new Set(builtinModules);
/** Specifiers of static imports and re-exports, and of side-effect imports. */
const STATIC = /\b(?:import|export)\b[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1|\bimport\s*(['"])([^'"]+)\3/g;
/** Calls that load a module: each must take a string literal, or the graph cannot be known. */
const CALLS = /\b(?:import|require)\s*\(\s*(['"`]?)/g;

/**
 * Whether a module from outside this package, and every file it imports by relative path, import
 * nothing but Node's built-ins and each other: such a module cannot import this package by name, so it
 * needs no resolution hooks. Conservative: a bare specifier, a computed or template import(), a
 * createRequire, a missing or unreadable file or a graph over 64 files all answer false. The source
 * is read as text, so an import named in a comment or string only makes the answer false, never true.
 */
export function importsOnlyBuiltins(file: string): boolean {
  const seen = new Set<string>();
  const queue = [file];
  while (queue.length) {
    const current = queue.pop()!;
    if (seen.has(current)) continue;
    if (seen.size === MAX_FILES) return false;
    seen.add(current);
    let source: string;
    try {
      source = readFileSync(current, 'utf8');
    } catch {
      return false;
    }
    if (source.length > MAX_BYTES || /\bcreateRequire\b|\bmodule\.require\b/.test(source)) return false;
    for (const call of source.matchAll(CALLS)) if (call[1] !== "'" && call[1] !== '"') return false;
    const specifiers = [...source.matchAll(STATIC)].map((m) => m[2] ?? m[4]!);
    for (const call of source.matchAll(/\b(?:import|require)\s*\(\s*(['"])([^'"]+)\1/g)) specifiers.push(call[2]!);
    for (const specifier of specifiers) {
      if (specifier.startsWith('node:') || BUILTINS.has(specifier)) continue;
      if (!specifier.startsWith('./') && !specifier.startsWith('../')) return false;
      queue.push(resolve(dirname(current), specifier));
    }
  }
  return true;
}

/** Whether `file` resolves this package's name to the running copy itself (its own node_modules has it). */
export function resolvesToRunningCopy(file: string, packageName: string, ownRoot: string): boolean {
  try {
    return realpathSync(dirname(createRequire(file).resolve(`${packageName}/package.json`))) === realpathSync(ownRoot);
  } catch {
    return false;
  }
}
