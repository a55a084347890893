import { resolve } from 'node:path';
import { DYNAMIC, type Arg } from './types.js';

/** What the walker knows while it reads a script: variables, the working directory, defined functions. */
export interface Scope {
  /** Variables set in the script: their value, or null when only known at run time. */
  vars: Map<string, string | null>;
  /** The virtual working directory, or null once a `cd` made it unknown. */
  cwd: string | null;
  functions: Set<string>;
}

/** A copy for a subshell or a branch: what it changes does not leak back. */
export const cloneScope = (scope: Scope): Scope => ({ vars: new Map(scope.vars), cwd: scope.cwd, functions: new Set(scope.functions) });

/** After branches that may or may not run, whatever they changed is unknown. */
export function mergeScopes(target: Scope, branches: Scope[]): void {
  for (const branch of branches) {
    for (const [key, value] of branch.vars) if (target.vars.get(key) !== value) target.vars.set(key, null);
    if (branch.cwd !== target.cwd) target.cwd = null;
    for (const f of branch.functions) target.functions.add(f);
  }
}

/** `dir` relative to `base` (null when either is only known at run time). */
export function subdirectory(base: string | null, dir: Arg): string | null {
  if (dir.value === null) return null;
  if (dir.value.startsWith('/')) return resolve(dir.value);
  return base === null ? null : resolve(base, dir.value);
}

/** Arguments that could be files: operands, and the values of `--opt=value`. */
export function possiblePaths(args: Arg[]): Arg[] {
  return args.flatMap((arg) => {
    const text = arg.template;
    if (!text.startsWith('-')) return [arg];
    const eq = text.indexOf('=');
    if (eq < 0) return [];
    const rest = text.slice(eq + 1);
    return rest ? [{ value: rest.includes(DYNAMIC) ? null : rest, template: rest, glob: arg.glob }] : [];
  });
}

/** An argument for people: run-time parts shown as `…`. */
export function describeDynamic(arg: Arg): string {
  return arg.template.split(DYNAMIC).join('…') || '…';
}

/** The string literals of code in another language (python -c "..."), where shell commands and paths hide. */
export function codeLiterals(code: string): string[] {
  return [...code.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '').filter((t) => t && !t.includes(DYNAMIC));
}
