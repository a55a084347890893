import type { Arg } from './types.js';

/** A command's arguments split into options and operands. */
export interface ParsedArgs {
  /** Options by name (`-r`, `--recursive`), with their value when they take one. Long names are the full ones, never an abbreviation. */
  options: Map<string, Arg[]>;
  /** Operands, in order (what is not an option or an option's value). */
  operands: Arg[];
  /** Arguments whose value is only known at run time (they could be options). */
  dynamic: Arg[];
  /** Options the spec does not list, as written (only for specs that list their flags): nothing about them is known. */
  unknown: string[];
}

/** What the value of an option is: a file read, a file written, code or a program to run, or inert text. */
export type ValueKind = 'read' | 'write' | 'code' | 'text';

/**
 * The options a command knows. A spec that lists `flags` is strict: any other option lands in
 * `unknown`, and a judge must then refuse to call the command proven (fail closed).
 */
export interface ArgSpec {
  /** Options that take no value (`-l`, `--all`). Listing them (even as []) makes the spec strict. */
  flags?: readonly string[];
  /** Options that take a value: a list (inert text) or a table of what each value is. */
  values?: readonly string[] | Readonly<Record<string, ValueKind>>;
  /** Long options whose value is optional and only ever given as `--opt=value` (`--color[=WHEN]`). */
  optional?: readonly string[];
  /** `-5` is a number option (`head -5`), not five flags. */
  numeric?: boolean;
  /** Options stop at the first operand (`timeout 5 cmd -x`: `-x` belongs to cmd). */
  stopAtOperand?: boolean;
}

/** The value kinds of a spec's value options, by name. */
export function valueKinds(spec: ArgSpec): Map<string, ValueKind> {
  const values = spec.values ?? [];
  if (Array.isArray(values)) return new Map((values as readonly string[]).map((v) => [v, 'text' as ValueKind]));
  return new Map(Object.entries(values as Record<string, ValueKind>));
}

/**
 * The full name of a long option as GNU getopt_long reads it: an exact name, or an unambiguous
 * prefix of one (`--split` is `--split-string`). Undefined when unknown or ambiguous.
 */
function longName(name: string, known: readonly string[]): string | undefined {
  if (known.includes(name)) return name;
  const matches = known.filter((k) => k.startsWith(name));
  return matches.length === 1 ? matches[0] : undefined;
}

/** Splits arguments into options and operands, as getopt-style tools read them. */
export function parseArgs(args: readonly Arg[], spec: ArgSpec = {}): ParsedArgs {
  const kinds = valueKinds(spec);
  const strict = spec.flags !== undefined;
  const flags = new Set(spec.flags ?? []);
  const optional = new Set(spec.optional ?? []);
  const longs = [...flags, ...kinds.keys(), ...optional].filter((n) => n.startsWith('--'));
  const options = new Map<string, Arg[]>();
  const operands: Arg[] = [];
  const dynamic: Arg[] = [];
  const unknown: string[] = [];
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
      const written = eq < 0 ? text : text.slice(0, eq);
      // Abbreviations are resolved for every spec: `--out x` must consume its value as `--output` does.
      const name = longName(written, longs) ?? written;
      const known = flags.has(name) || kinds.has(name) || optional.has(name);
      // A strict spec takes no abbreviation: the tool may know a longer option this spec does not list.
      if (strict && (!known || name !== written || (eq >= 0 && flags.has(name) && !optional.has(name) && !kinds.has(name)))) unknown.push(text);
      if (eq >= 0) add(name, { value: text.slice(eq + 1), template: arg.template.slice(arg.template.indexOf('=') + 1), glob: arg.glob });
      else if (kinds.has(name) && i + 1 < args.length) add(name, args[++i]);
      else add(name);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(text)) {
      add('-#', { value: text.slice(1), template: text.slice(1), glob: false });
      continue;
    }
    // Short options, possibly bundled (`-rf`); a value option takes the rest or the next word.
    for (let j = 1; j < text.length; j++) {
      const name = '-' + text[j];
      if (kinds.has(name)) {
        const rest = text.slice(j + 1);
        if (rest) add(name, { value: rest, template: arg.template.slice(arg.template.length - rest.length), glob: arg.glob });
        else if (i + 1 < args.length) add(name, args[++i]);
        else add(name);
        break;
      }
      if (strict && !flags.has(name)) {
        // An unknown letter may take the rest as its value: nothing after it is known.
        unknown.push(text);
        add(name);
        break;
      }
      add(name);
    }
  }
  return { options, operands, dynamic, unknown };
}

/** True when any of the named options is present. */
export function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return names.some((n) => parsed.options.has(n));
}

/** The values given to any of the named options. */
export function optionValues(parsed: ParsedArgs, ...names: string[]): Arg[] {
  return names.flatMap((n) => parsed.options.get(n) ?? []);
}

/** The values of the options of one kind (`read`: files the command reads). */
export function valuesOfKind(parsed: ParsedArgs, spec: ArgSpec, kind: ValueKind): Arg[] {
  return [...valueKinds(spec)].filter(([, k]) => k === kind).flatMap(([name]) => parsed.options.get(name) ?? []);
}

/** Concerns for options a strict spec does not know: the command cannot be proven safe. */
export function unknownOptions(parsed: ParsedArgs, name: string): string[] {
  return parsed.unknown.length ? [`\`${name}\` is given an option assistant does not know (${parsed.unknown.join(', ')}), so what it does cannot be proven`] : [];
}

/** The literal text of an argument ('' when dynamic), for quick comparisons. */
export function textOf(arg: Arg | undefined): string {
  return arg?.value ?? '';
}
