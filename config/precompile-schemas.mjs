// Build step: compiles the JSON schemas every start validates (the core config schema and the
// built-in plugins' and providers' options) into standalone ajv validators under dist/schemas, beside the code
// they belong to. A start then needs neither ajv's compiler nor any code from a user-writable
// cache. Schemas not found here (third-party plugins, changed schemas) are compiled in memory.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const { PREWRAP } = await import(pathToFileURL(join(dist, 'config/compile-cache.js')).href);
const { precompiledName, ajvForStandalone } = await import(pathToFileURL(join(dist, 'core/util/json-validate.js')).href);
const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
const { coreConfigSchema } = await import(pathToFileURL(join(dist, 'config/schema.js')).href);

const { defaultLayer } = await import(pathToFileURL(join(dist, 'config/defaults.js')).href);

const schemas = [coreConfigSchema];
/**
 * The schemas every start validates with more than `{}`: the configuration, and the options of the
 * plugins whose section the defaults set (`permissions: { mode }`). Their code is in validators.cjs;
 * every other schema's in validators-more.cjs, loaded on its first real validation (a start answers
 * the others' `{}` from build-time defaults: ~250 of ~300 KB it would read and keep for nothing).
 */
const everyStart = new Set([coreConfigSchema]);
const defaults = defaultLayer().values;
const setByDefaults = (key) => key !== undefined && defaults[key] !== null && typeof defaults[key] === 'object' && Object.keys(defaults[key]).length > 0;
for (const name of readdirSync(join(dist, 'plugins'))) {
  const entry = join(dist, 'plugins', name, 'index.js');
  if (!existsSync(entry)) continue;
  const mod = await import(pathToFileURL(entry).href);
  if (mod.default?.optionsSchema) schemas.push(mod.default.optionsSchema);
  if (mod.default?.optionsSchema && setByDefaults(mod.default.configKey ?? mod.default.name)) everyStart.add(mod.default.optionsSchema);
  // A provider validates its `provider:` options against a schema of its own when it is chosen.
  if (mod.providerOptions) schemas.push(mod.providerOptions);
  // Schemas a plugin registers in more than one shape (Bash's, by what the sandbox allows): all of them.
  if (typeof mod.precompiledSchemas === 'function') schemas.push(...mod.precompiledSchemas());
}

// The built-in tools' input schemas, as the default preset registers them: each call validates its
// input, and compiling the first one at run time cost ~100 ms of ajv (a tool whose schema differs
// at run time is compiled in memory as before).
{
  const home = mkdtempSync(join(tmpdir(), 'assistant-precompile-'));
  Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') });
  try {
    const { loadConfig } = await import(pathToFileURL(join(dist, 'config/load.js')).href);
    const { createKernel } = await import(pathToFileURL(join(dist, 'core/kernel/kernel.js')).href);
    const kernel = await createKernel({ config: await loadConfig({ cwd: home, noUserConfig: true }), headless: true });
    for (const tool of kernel.tools.list()) schemas.push(tool.inputSchema);
    await kernel.shutdown();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// One file for all of them, each validator's module body wrapped as a function (CommonJS's own
// wrapper): a start requires one file instead of one per schema (~0.4 ms each).
const out = join(dist, 'schemas');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const bodies = new Map();
const startNames = new Set([...everyStart].map((schema) => precompiledName(schema)));
for (const schema of schemas) {
  const ajv = ajvForStandalone();
  const validate = ajv.compile(schema);
  const code = standaloneCode.default ? standaloneCode.default(ajv, validate) : standaloneCode(ajv, validate);
  // What validating {} leaves in it (the defaults), when {} is valid and JSON carries all of it.
  const empty = {};
  const defaults = validate(empty) && isDeepStrictEqual(JSON.parse(JSON.stringify(empty)), empty) ? JSON.stringify(empty) : undefined;
  bodies.set(precompiledName(schema), { code, defaults });
}
const later = [...bodies.keys()].filter((name) => !startNames.has(name));
const entries = [...bodies].map(([name, { code, defaults }]) => {
  const body = startNames.has(name) ? `function (module, exports, require) {\n${code}\n}` : `more(${later.indexOf(name)})`;
  return `${JSON.stringify(name)}: ${defaults === undefined ? body : `emptyFirst(${JSON.stringify(defaults)}, ${body})`}`;
});
// The others' code, by the index validators.cjs names it with; required (and compiled) on first use.
const MORE = `const requireHere = require;
const more = (index) => function (module, exports, require) {
  return requireHere('./validators-more.cjs')[index](module, exports, require);
};`;
// Most of a start's validations are of options nobody set: a plugin's `{}`. A schema that accepts
// {} answers for an empty plain object (no enumerable key, own or inherited, as ajv's checks see)
// with the defaults the build got from ajv, without running, or compiling, ajv's code for it;
// anything else goes to that code, made on first use.
const EMPTY_FIRST = `function emptyFirst(defaults, factory) {
  return function (module, exports, require) {
    let real;
    const isEmpty = (data) => {
      if (data === null || typeof data !== 'object' || Object.getPrototypeOf(data) !== Object.prototype) return false;
      for (const key in data) return false;
      return true;
    };
    function validate(data) {
      if (isEmpty(data)) {
        Object.assign(data, JSON.parse(defaults));
        validate.errors = null;
        return true;
      }
      if (!real) {
        const made = { exports: {} };
        factory(made, made.exports, require);
        real = made.exports.default;
      }
      const valid = real.apply(this, arguments);
      validate.errors = real.errors;
      return valid;
    }
    validate.errors = null;
    module.exports = validate;
    module.exports.default = validate;
  };
}`;
writeFileSync(
  join(out, 'validators.cjs'),
  `${PREWRAP.head}\n"use strict";\n// Generated by config/precompile-schemas.mjs: the built-in schemas' ajv validators, keyed by precompiledName.\n${EMPTY_FIRST}\n${MORE}\nmodule.exports = {\n${entries.join(',\n')}\n};${PREWRAP.tail}\n`,
);
writeFileSync(
  join(out, 'validators-more.cjs'),
  `${PREWRAP.head}\n"use strict";\n// Generated by config/precompile-schemas.mjs: the code of the validators a start does not run (validators.cjs names each by its index).\nmodule.exports = [\n${later.map((name) => `function (module, exports, require) {\n${bodies.get(name).code}\n}`).join(',\n')}\n];${PREWRAP.tail}\n`,
);
const shortcut = [...bodies.values()].filter((body) => body.defaults !== undefined).length;
console.log(`precompiled ${bodies.size} schemas into dist/schemas/validators.cjs (${shortcut} answer {} from build-time defaults; the code of ${later.length} in validators-more.cjs)`);
