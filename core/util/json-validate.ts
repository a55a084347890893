import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../types/json-schema.js';
import { didYouMean } from '../kernel/close-matches.js';

const requireHere = createRequire(import.meta.url);
const OPTIONS = { allErrors: true, useDefaults: true, strict: false, allowUnionTypes: true } as const;
let shared: Ajv | undefined;

/** One ajv instance per process: all errors, defaults filled in, unknown formats tolerated. Loaded on the first compile. */
export function ajv(): Ajv {
  shared ??= new (requireHere('ajv') as { Ajv: new (options: object) => Ajv }).Ajv(OPTIONS);
  return shared;
}

/** An ajv set up as `ajv()` is, that also keeps the generated source (for the build's standalone validators). */
export function ajvForStandalone(): Ajv {
  return new (requireHere('ajv') as { Ajv: new (options: object) => Ajv }).Ajv({ ...OPTIONS, code: { source: true } });
}

/**
 * The key of a schema's validator precompiled at build time: its JSON as written, keys in the order
 * its module wrote them (the build and a start see the same objects; sorting keys in JS cost a start
 * ~2 ms). The text itself, not a digest: an exact match, and no node:crypto to load for it. A copy
 * in another order is compiled in memory.
 */
export function precompiledName(schema: object): string {
  return JSON.stringify(schema);
}

/** Validators already made in this process, by schema object. */
const compiled = new WeakMap<object, ValidateFunction>();

/** A precompiled validator's module body, wrapped as CommonJS wraps a file. */
type ValidatorFactory = (module: { exports: { default?: ValidateFunction } }, exports: object, require: NodeJS.Require) => void;

/**
 * The validators the build precompiled, all in one file inside the package (never in a
 * user-writable cache): one require at start-up instead of one per schema. Null when missing.
 */
let shipped: Record<string, ValidatorFactory> | null | undefined;
export function shippedValidators(): Record<string, ValidatorFactory> | null {
  if (shipped === undefined)
    try {
      shipped = requireHere(fileURLToPath(new URL('../../schemas/validators.cjs', import.meta.url))) as Record<string, ValidatorFactory>;
    } catch {
      shipped = null;
    }
  return shipped;
}

/**
 * What the generated validators require of ajv's runtime, served here (from node_modules: resolved,
 * read and compiled without a code cache, ~0.6 ms a start): a length in code points, as JSON Schema counts.
 */
const validatorRequire = Object.assign((id: string) => (id === 'ajv/dist/runtime/ucs2length' ? { default: (text: string) => [...text].length } : requireHere(id)), requireHere) as NodeJS.Require;

function precompiled<T>(schema: object): ValidateFunction<T> | undefined {
  const factory = shippedValidators()?.[precompiledName(schema)];
  if (!factory) return undefined;
  const module: { exports: { default?: ValidateFunction } } = { exports: {} };
  factory(module, module.exports, validatorRequire);
  return module.exports.default as ValidateFunction<T> | undefined;
}

/**
 * A validator for a schema: the one the build precompiled for it (built-in schemas), else compiled
 * in memory; compile errors (a broken schema) throw. Generated code is never kept in a cache: one
 * the agent's commands can write would be code run by the next start, outside any sandbox.
 */
export function compileSchema<T = unknown>(schema: JsonSchema): ValidateFunction<T> {
  const known = compiled.get(schema as object);
  if (known) return known as ValidateFunction<T>;
  const validate = precompiled<T>(schema as object) ?? ajv().compile<T>(schema as object);
  compiled.set(schema as object, validate as ValidateFunction);
  return validate;
}


/** One readable line per schema error: `/limits/maxTurns: must be integer (got "ten")`. */
export function describeSchemaErrors(
  errors: readonly ErrorObject[] | null | undefined,
  data: unknown,
  basePath = '',
  /** The schema validated against: an unknown key then names the known key it is closest to. */
  schema?: JsonSchema,
): string[] {
  if (!errors) return [];
  const lines = new Set<string>(); // in order, each once
  for (const e of errors) {
    // `if`/`anyOf` wrappers repeat what their branches already said.
    if (e.keyword === 'if' || e.keyword === 'anyOf' || e.keyword === 'oneOf') continue;
    let path = basePath + e.instancePath;
    let what: string;
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      path = `${path}/${extra}`;
      what = `is not a known key${schema ? didYouMean(extra, knownKeys(schema, e.schemaPath)) : ''}`;
    } else if (e.keyword === 'required') what = `must have the key "${(e.params as { missingProperty: string }).missingProperty}"`;
    else if (e.keyword === 'enum') what = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    else what = e.message ?? e.keyword;
    const got = e.keyword === 'type' || e.keyword === 'enum' || e.keyword === 'pattern' ? ` (got ${preview(valueAt(data, e.instancePath))})` : '';
    lines.add(`${path || '/'}: ${what}${got}`);
  }
  return [...lines];
}

/** The keys declared beside an `additionalProperties` the error's schema path points at (none when it cannot be followed). */
function knownKeys(schema: JsonSchema, schemaPath: string): string[] {
  if (!schemaPath.startsWith('#/')) return [];
  let node: unknown = schema;
  for (const raw of schemaPath.split('/').slice(1, -1)) {
    if (node === null || typeof node !== 'object') return [];
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  const properties = node && typeof node === 'object' ? (node as { properties?: unknown }).properties : undefined;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
}

/** Reads the value at a JSON pointer. */
export function valueAt(data: unknown, pointer: string): unknown {
  if (!pointer) return data;
  let cur: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function preview(value: unknown): string {
  const s = JSON.stringify(value);
  if (s === undefined) return String(value);
  return s.length > 40 ? s.slice(0, 37) + '...' : s;
}

/** What is wrong with `value` against `schema`, one readable line per problem (empty when it is valid). Fills in defaults. */
export function schemaProblems(schema: JsonSchema, value: unknown, basePath = ''): string[] {
  const validate = compileSchema(schema);
  return validate(value) ? [] : describeSchemaErrors(validate.errors, value, basePath, schema);
}
