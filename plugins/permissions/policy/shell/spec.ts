import { parseArgs, unknownOptions, valuesOfKind, type ArgSpec, type ParsedArgs } from './argv.js';
import type { Arg, Risk } from './types.js';

/** What one command does, as its judge reads its arguments. */
export interface Verdict {
  risk: Risk;
  /** Why, for people: "`rm` deletes files". */
  reason: string;
  reads?: Arg[];
  /** Directories read with everything below them (grep -r, cp -r, tar c). */
  recursiveReads?: Arg[];
  /** Prints what the repository holds (git grep, log -p, show, diff, cat-file): a tracked secret could be printed whatever the operands name. */
  readsTracked?: boolean;
  /** The recursive reads skip names starting with a dot and symlinks (rg and ag without --hidden or --follow). */
  skipHidden?: boolean;
  /** Base-name patterns a recursive read skips (grep --exclude). */
  excludes?: string[];
  /** The reads only look at names and sizes (ls, du, stat), not contents. */
  metadataOnly?: boolean;
  writes?: Arg[];
  /** Writes files it cannot name (make, tar x, patch). */
  writesUnknown?: boolean;
  /** Commands this one runs (xargs, find -exec), as argument lists; DYNAMIC args stand for input. */
  runs?: Arg[][];
  /** Shell scripts this one runs (sh -c, eval, watch). */
  scripts?: Arg[];
  /** Inline code of another language (python -c), scanned for shell strings and secret paths. */
  code?: Arg[];
  /** Runs commands read from standard input (a shell given no script). */
  readsStdin?: boolean;
  /** Relative paths of this command are relative to this directory (git -C). */
  cwd?: Arg;
  /** Changes the working directory for the rest of the script. */
  cd?: Arg | 'home' | 'unknown';
  /** The arguments are neither paths nor options that matter: run-time values are harmless (echo, test). */
  inert?: boolean;
  concerns?: string[];
  /** Static text the command prints (echo 'x'), for `echo 'ls' | sh`. */
  output?: string;
}

/** Settings judges consult. */
export interface JudgeContext {
  /** Test and lint runs (`npm test`) count as safe. */
  trustTests: boolean;
}

/** Reads a command's arguments (without its name) and says what it does. */
export type Judge = (args: Arg[], context: JudgeContext, name: string) => Verdict;

/**
 * Folds what a strict spec knows into a verdict: option values that are files read or written
 * count as such, a value that is code makes it run code, and an unknown option keeps it unproven.
 */
export function checked(verdict: Verdict, parsed: ParsedArgs, spec: ArgSpec, name: string): Verdict {
  const code = valuesOfKind(parsed, spec, 'code');
  if (code.length) return { ...verdict, risk: 'exec', reason: `\`${name}\` is given a program or code to run or load (${code.map((a) => a.template).join(', ')})` };
  const reads = valuesOfKind(parsed, spec, 'read');
  const writes = valuesOfKind(parsed, spec, 'write');
  const concerns = [...(verdict.concerns ?? []), ...unknownOptions(parsed, name)];
  return {
    ...verdict,
    ...(reads.length ? { reads: [...(verdict.reads ?? []), ...reads] } : {}),
    ...(writes.length ? { writes: [...(verdict.writes ?? []), ...writes] } : {}),
    ...(concerns.length ? { concerns } : {}),
  };
}

/** A command that only reads the files named by its operands; `spec` lists every option it knows. */
export function reader(spec: ArgSpec, extra?: (parsed: ParsedArgs, name: string) => Partial<Verdict> | undefined): Judge {
  return (args, _context, name) => {
    const parsed = parseArgs(args, spec);
    return checked({ risk: 'read', reason: `\`${name}\` only reads`, reads: parsed.operands, ...extra?.(parsed, name) }, parsed, spec, name);
  };
}

/** A command whose arguments are not paths (echo, pwd, whoami); with a spec, only its known options keep it proven. */
export function inert(spec?: ArgSpec): Judge {
  return (args, _context, name) => {
    const verdict: Verdict = { risk: 'read', reason: `\`${name}\` only prints`, inert: true };
    return spec ? checked(verdict, parseArgs(args, spec), spec, name) : verdict;
  };
}

/** A command with a fixed risk whatever its arguments. */
export function fixed(risk: Risk, reason: string, extra: Partial<Verdict> = {}): Judge {
  return () => ({ risk, reason, ...extra });
}

/** A command that changes the files named by its operands. */
export function writer(reason: string, values: readonly string[] = []): Judge {
  return (args) => ({ risk: 'write', reason, writes: parseArgs(args, { values }).operands });
}

/** Picks a judge by the first operand (`git status`, `npm test`); unknown subcommands get `fallback`. */
export function bySubcommand(table: Record<string, Judge>, fallback: Judge, globalValues: readonly string[] = []): Judge {
  return (args, context, name) => {
    const parsed = parseArgs(args, { values: globalValues, stopAtOperand: true });
    const sub = parsed.operands[0];
    const index = sub ? args.indexOf(sub) : -1;
    const judge = sub?.value != null ? table[sub.value] : undefined;
    if (!judge || index < 0) return fallback(args, context, name);
    return judge(args.slice(index + 1), context, `${name} ${sub!.value}`);
  };
}
