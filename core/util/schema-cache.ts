import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Ajv, ValidateFunction } from 'ajv';
import { userDirs } from './paths.js';

// Compiling a schema is ajv's code generation, about 2 ms each; start-up compiles every plugin's
// options schema. The generated code is kept on disk (keyed by the schema, ajv's version and the
// options) and evaluated on later runs, which skips code generation. Best effort: any failure
// here falls back to compiling.

const requireHere = createRequire(import.meta.url);
let dir: string | null | undefined;

function cacheDir(): string | null {
  if (dir !== undefined) return dir;
  if (process.env.ASSISTANT_SCHEMA_CACHE === 'off') return (dir = null);
  const { version } = requireHere('ajv/package.json') as { version: string };
  return (dir = join(userDirs().cache, 'schemas', `ajv-${version}`));
}

/** The cache file of a schema compiled with the given ajv options. */
function fileFor(schema: object, optionsKey: string): string | null {
  const base = cacheDir();
  if (!base) return null;
  const hash = createHash('sha256').update(optionsKey).update('\0').update(JSON.stringify(schema)).digest('hex').slice(0, 32);
  return join(base, `${hash}.cjs`);
}

/** A validator from the cache, or undefined. */
export function cachedValidator<T>(schema: object, optionsKey: string): ValidateFunction<T> | undefined {
  try {
    const file = fileFor(schema, optionsKey);
    if (!file) return undefined;
    const code = readFileSync(file, 'utf8');
    const module = { exports: {} as { default?: ValidateFunction<T> } };
    // The generated code requires ajv's runtime helpers, resolved from this package.
    new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
    return module.exports.default;
  } catch {
    return undefined;
  }
}

/** Keeps the generated code of a freshly compiled validator. */
export function storeValidator(ajv: Ajv, schema: object, optionsKey: string, validate: ValidateFunction): void {
  try {
    const file = fileFor(schema, optionsKey);
    if (!file) return;
    const standalone = (requireHere('ajv/dist/standalone') as { default: (ajv: Ajv, validate: ValidateFunction) => string }).default;
    const code = standalone(ajv, validate);
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    // Written whole, then renamed: a concurrent run reads the old state or the new, never half.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    // A read-only home or a full disk only costs the next run the compile.
  }
}
