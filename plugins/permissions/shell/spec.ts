import { parseArgs, type ArgSpec, type ParsedArgs } from './argv.js';
import type { Arg, Risk } from './types.js';

/** What one command does, as its judge reads its arguments. */
export interface Verdict {
  risk: Risk;
  /** Why, for people: "`rm` deletes files". */
  reason: string;
  reads?: Arg[];
  /** Directories read with everything below them (grep -r, cp -r, tar c). */
  recursiveReads?: Arg[];
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

/** A command that only reads the files named by its operands. */
export function reader(values: readonly string[] = [], extra?: (parsed: ParsedArgs, name: string) => Partial<Verdict> | undefined): Judge {
  const spec: ArgSpec = { values };
  return (args, _context, name) => {
    const parsed = parseArgs(args, spec);
    return { risk: 'read', reason: `\`${name}\` only reads`, reads: parsed.operands, ...extra?.(parsed, name) };
  };
}

/** A command whose arguments are not paths (echo, pwd, whoami). */
export function inert(): Judge {
  return (_args, _context, name) => ({ risk: 'read', reason: `\`${name}\` only prints`, inert: true });
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
