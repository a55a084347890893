// Build step: compiles the JSON schemas every start validates (the core config schema and the
// built-in plugins' and providers' options) into standalone ajv validators under dist/schemas, beside the code
// they belong to. A start then needs neither ajv's compiler nor any code from a user-writable
// cache. Schemas not found here (third-party plugins, changed schemas) are compiled in memory.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const { precompiledName, ajvForStandalone } = await import(pathToFileURL(join(dist, 'core/util/json-validate.js')).href);
const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
const { coreConfigSchema } = await import(pathToFileURL(join(dist, 'config/schema.js')).href);

const schemas = [coreConfigSchema];
for (const name of readdirSync(join(dist, 'plugins'))) {
  const entry = join(dist, 'plugins', name, 'index.js');
  if (!existsSync(entry)) continue;
  const mod = await import(pathToFileURL(entry).href);
  if (mod.default?.optionsSchema) schemas.push(mod.default.optionsSchema);
  // A provider validates its `provider:` options against a schema of its own when it is chosen.
  if (mod.providerOptions) schemas.push(mod.providerOptions);
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

const out = join(dist, 'schemas');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const schema of schemas) {
  const ajv = ajvForStandalone();
  const validate = ajv.compile(schema);
  writeFileSync(join(out, precompiledName(schema)), standaloneCode.default ? standaloneCode.default(ajv, validate) : standaloneCode(ajv, validate));
}
console.log(`precompiled ${schemas.length} schemas into dist/schemas`);
