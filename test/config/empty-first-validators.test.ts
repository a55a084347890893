// Most of a start's validations are of options nobody set: a built-in plugin's `{}`. The build asks
// ajv once what {} becomes (its defaults filled in) for each shipped schema that accepts it; the
// shipped validator answers an empty plain object from that without running, or compiling, ajv's
// code for the schema (config/precompile-schemas.mjs). It must answer every input exactly as ajv's
// own validator of the schema does: the verdict, the defaults left in the data, and the errors.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { coreConfigSchema } from '../../dist/config/schema.js';
import { ajv, precompiledName, shippedValidators } from '../../dist/core/util/json-validate.js';

const PLUGINS = fileURLToPath(new URL('../../dist/plugins/', import.meta.url));

/** The built-in plugins' option schemas and the providers' own, as the build collects them, and the config's. */
async function optionSchemas(): Promise<object[]> {
  const schemas: object[] = [coreConfigSchema];
  for (const name of readdirSync(PLUGINS)) {
    let mod: { default?: { optionsSchema?: object }; providerOptions?: object };
    try {
      mod = await import(pathToFileURL(join(PLUGINS, name, 'index.js')).href);
    } catch {
      continue; // a folder with no plugin entry
    }
    if (mod.default?.optionsSchema) schemas.push(mod.default.optionsSchema);
    if (mod.providerOptions) schemas.push(mod.providerOptions);
  }
  return schemas;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** The shipped validator of a schema, made with a `require` that counts what ajv's generated code asks of it. */
function shipped(schema: object): { validate: Validate; requires: string[] } | undefined {
  const factory = shippedValidators()?.[precompiledName(schema)];
  if (!factory) return undefined;
  const requires: string[] = [];
  const spy = Object.assign((id: string) => (requires.push(id), id === 'ajv/dist/runtime/ucs2length' ? { default: (text: string) => [...text].length } : undefined), {}) as unknown as NodeJS.Require;
  const module: { exports: { default?: Validate } } = { exports: {} };
  factory(module as never, module.exports, spy);
  return { validate: module.exports.default!, requires };
}

/** Inputs where a shortcut could go wrong: empty ones of every kind, and some that are not empty. */
const inputs = (): unknown[] => [
  {},
  Object.create(null),
  Object.create({ inherited: 1 }),
  Object.create(Object.create(null)),
  { bogus: true },
  { mode: 'nope' },
  [],
  null,
  'text',
  0,
];

describe('validators that answer {} from build-time defaults', () => {
  it('give every input the verdict, data and errors of ajv compiled in memory', async () => {
    const schemas = await optionSchemas();
    let answered = 0;
    for (const schema of schemas) {
      const ours = shipped(schema);
      expect(ours, `a shipped validator for ${JSON.stringify(schema).slice(0, 80)}`).toBeDefined();
      const reference = ajv().compile(schema);
      for (const [i, input] of inputs().entries()) {
        const mine = inputs()[i];
        const verdict = ours!.validate(mine);
        expect(verdict, `${precompiledName(schema)} on input ${i}`).toBe(reference(input));
        expect(mine, `${precompiledName(schema)} on input ${i}`).toStrictEqual(input);
        expect(ours!.validate.errors ?? null, `${precompiledName(schema)} on input ${i}`).toEqual(reference.errors ?? null);
      }
      answered += reference({}) ? 1 : 0;
    }
    // The config's schema and most plugins' accept {}.
    expect(answered).toBeGreaterThan(20);
  });

  it('see a key an object inherits from a polluted Object.prototype, as ajv does', async () => {
    const schemas = await optionSchemas();
    const verdicts = () => schemas.map((schema) => [shipped(schema)!.validate({}), ajv().compile(schema)({})]);
    let polluted: unknown[][];
    try {
      (Object.prototype as Record<string, unknown>).pollutedKey = 1;
      polluted = verdicts();
    } finally {
      delete (Object.prototype as Record<string, unknown>).pollutedKey;
    }
    for (const [ours, reference] of polluted) expect(ours).toBe(reference);
    // A schema that forbids other keys rejects it: the shortcut must not have answered.
    expect(polluted.some(([, reference]) => reference === false)).toBe(true);
  });

  it("answer an empty plain object without ajv's code, and make that code for the first other input", async () => {
    // Schemas with a string length: their generated code requires ajv's ucs2length as it starts.
    const withLength = (await optionSchemas()).filter((schema) => JSON.stringify(schema).includes('"minLength"') && ajv().compile(schema)({}));
    expect(withLength.length).toBeGreaterThan(10);
    for (const schema of withLength) {
      const { validate, requires } = shipped(schema)!;
      const empty = {};
      expect(validate(empty)).toBe(true);
      expect(validate.errors).toBeNull();
      // Defaults filled in as ajv fills them, fresh for each call: a plugin changing its options changes no one else's.
      const reference = {};
      ajv().compile(schema)(reference);
      expect(empty).toStrictEqual(reference);
      const again = {};
      validate(again);
      for (const key of Object.keys(again)) if (typeof (again as Record<string, unknown>)[key] === 'object') expect((again as Record<string, unknown>)[key]).not.toBe((empty as Record<string, unknown>)[key]);
      expect(requires).toEqual([]);
      validate({ bogus: true });
      expect(requires).toEqual(['ajv/dist/runtime/ucs2length']);
    }
  });
});
