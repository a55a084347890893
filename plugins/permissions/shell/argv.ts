import type { Arg } from './types.js';

/** A command's arguments split into options and operands. */
export interface ParsedArgs {
  /** Options by name (`-r`, `--recursive`), with their value when they take one. */
  options: Map<string, Arg[]>;
  /** Operands, in order (what is not an option or an option's value). */
  operands: Arg[];
  /** Arguments whose value is only known at run time (they could be options). */
  dynamic: Arg[];
}

/** Which options take a value; everything else is a flag. */
export interface ArgSpec {
  /** Option names that take a value: `-n`, `--lines`. */
  values?: readonly string[];
  /** Options stop at the first operand (`timeout 5 cmd -x`: `-x` belongs to cmd). */
  stopAtOperand?: boolean;
}

/** Splits arguments into options and operands, as getopt-style tools read them. */
export function parseArgs(args: readonly Arg[], spec: ArgSpec = {}): ParsedArgs {
  const takesValue = new Set(spec.values ?? []);
  const options = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const dynamic: Arg[] = [];
  const add = (name: string, value?: Arg) => {
    const list = options.get(name) ?? [];
    if (value) list.push(value);
    options.set(name, list);
  };
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const text = arg.value;
    if (text === null) dynamic.push(arg);
    if (onlyOperands || text === null || text === '-' || !text.startsWith('-')) {
      operands.push(arg);
      if (spec.stopAtOperand && text !== null) onlyOperands = true;
      continue;
    }
    if (text === '--') {
      onlyOperands = true;
      continue;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text : text.slice(0, eq);
      if (eq >= 0) add(name, { value: text.slice(eq + 1), template: arg.template.slice(arg.template.indexOf('=') + 1), glob: arg.glob });
      else if (takesValue.has(name) && i + 1 < args.length) add(name, args[++i]);
      else add(name);
      continue;
    }
    // Short options, possibly bundled (`-rf`); a value option takes the rest or the next word.
    for (let j = 1; j < text.length; j++) {
      const name = '-' + text[j];
      if (takesValue.has(name)) {
        const rest = text.slice(j + 1);
        if (rest) add(name, { value: rest, template: rest, glob: arg.glob });
        else if (i + 1 < args.length) add(name, args[++i]);
        else add(name);
        break;
      }
      add(name);
    }
  }
  return { options, operands, dynamic };
}

/** True when any of the named options is present. */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return names.some((n) => parsed.options.has(n));
}

/** The values given to any of the named options. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): Arg[] {
  return names.flatMap((n) => parsed.options.get(n) ?? []);
}

/** The literal text of an argument ('' when dynamic), for quick comparisons. */
export function textOf(arg: Arg | undefined): string {
  return arg?.value ?? '';
}
