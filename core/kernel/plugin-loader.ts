import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PluginError, ConfigError } from './errors.js';
import type { Plugin } from './kernel-types.js';
import type { ResolvedPluginEntry, AssistantConfig } from '../types/config.js';
import { isPathSpec, resolveModule } from './resolve-module.js';
import { compileSchema, describeSchemaErrors } from '../util/json-validate.js';
import { shareRunningAssistantFor } from './self-reference.js';
import { importRuntime } from '../util/runtime-module.js';

/** The compiled package's folder (this file is in core/kernel/): plugins inside it are built-ins. */
const OWN_FILES = fileURLToPath(new URL('../../', import.meta.url));

/** True for a plugin loaded from this package's own files (a built-in). */
export function isBuiltInSource(file: string): boolean {
  return file.startsWith(OWN_FILES);
}

/** A plugin ready to apply: its module, validated options, and where it came from. */
export interface PreparedPlugin {
  plugin: Plugin<any>;
  options: Record<string, unknown>;
  source: string;
  listedIn: string;
  /** The version in the package's package.json, for a package plugin that declares none itself. */
  packageVersion?: string;
}

const NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;

/**
 * Imports one plugin module and checks it exports a plugin. A package name is looked up from the
 * project's directory first (so a preset or the user's global config can name a package the project
 * installed), then from the directory of the file that listed it.
 */
export async function importPlugin(
  entry: ResolvedPluginEntry,
  projectRoot?: string,
): Promise<{ plugin: Plugin<any>; source: string; packageVersion?: string }> {
  const fromProject = projectRoot && !isPathSpec(entry.spec) ? resolveModule(entry.spec, projectRoot) : undefined;
  const file = fromProject ?? resolveModule(entry.spec, entry.baseDir);
  if (!file) {
    const how = isPathSpec(entry.spec)
      ? `no file at ${entry.spec} (relative to ${entry.baseDir})`
      : `package "${entry.spec}" is not installed in ${projectRoot ?? entry.baseDir} or a parent node_modules (run: npm install --save-dev ${entry.spec})`;
    throw new PluginError('ASSISTANT_PLUGIN_NOT_FOUND', `cannot load plugin "${entry.spec}" listed in ${entry.source}: ${how}`, {
      file: entry.source,
    });
  }
  // A plugin from outside this package that imports the public API gets this running copy.
  if (!isBuiltInSource(file)) shareRunningAssistantFor(file);
  let mod: Record<string, unknown>;
  try {
    mod = await importRuntime(pathToFileURL(file).href);
  } catch (cause) {
    throw new PluginError(
      'ASSISTANT_PLUGIN_LOAD_FAILED',
      `plugin "${entry.spec}" (${file}) threw while loading: ${(cause as Error)?.message ?? cause}`,
      { cause, file },
    );
  }
  const candidate = (mod.default ?? mod.plugin) as Plugin<any> | undefined;
  if (!candidate || typeof candidate !== 'object' || typeof candidate.apply !== 'function' || typeof candidate.name !== 'string')
    throw new PluginError(
      'ASSISTANT_PLUGIN_INVALID',
      `"${entry.spec}" (${file}) does not export a plugin: expected a default export made with definePlugin({ name, apply })`,
      { file },
    );
  if (!NAME.test(candidate.name))
    throw new PluginError('ASSISTANT_PLUGIN_INVALID', `plugin name "${candidate.name}" (${file}) must be kebab-case`, { file });
  const packageVersion = isPathSpec(entry.spec) ? undefined : installedVersion(entry.spec, file);
  return { plugin: candidate, source: file, ...(packageVersion ? { packageVersion } : {}) };
}

/** The `version` of the installed package `spec` names, read from the package.json above its resolved file. */
function installedVersion(spec: string, file: string): string | undefined {
  const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    try {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === name) return typeof pkg.version === 'string' ? pkg.version : undefined;
    } catch {
      // An unreadable manifest only costs the version column.
    }
  }
  return undefined;
}

/**
 * Imports the listed plugins and settles the final set: an entry naming an already-listed plugin
 * only changes its options; a plugin with the name of an earlier one replaces it; `false` disables.
 */
export async function collectPlugins(
  entries: ResolvedPluginEntry[],
  disabled: string[],
  projectRoot?: string,
): Promise<{ prepared: PreparedPlugin[]; listedNames: string[]; unknownDisabled: string[] }> {
  const byName = new Map<string, PreparedPlugin>();
  // Imports run in parallel; settling keeps the listed order.
  // (An entry that turns out to name an already-listed plugin has its import result ignored.)
  const imports = entries.map((entry) => importPlugin(entry, projectRoot).catch((error: unknown) => ({ error })));
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const existing = !isPathSpec(entry.spec) ? byName.get(entry.spec) : undefined;
    if (existing) {
      existing.options = { ...existing.options, ...entry.options };
      existing.listedIn = entry.source;
      continue;
    }
    const imported = await imports[i]!;
    if ('error' in imported) throw imported.error;
    byName.delete(imported.plugin.name);
    byName.set(imported.plugin.name, {
      plugin: imported.plugin,
      options: entry.options,
      source: imported.source,
      listedIn: entry.source,
      ...(imported.packageVersion ? { packageVersion: imported.packageVersion } : {}),
    });
  }
  const listedNames = [...byName.keys()];
  // A disabled name no listed plugin has (`["context-compactionn", false]`) disables nothing: a typo
  // that would leave the plugin running unnoticed.
  const unknownDisabled = disabled.filter((name) => !byName.has(name));
  for (const name of disabled) byName.delete(name);
  return { prepared: [...byName.values()], listedNames, unknownDisabled };
}

type Satisfies = typeof import('semver/functions/satisfies.js');
let satisfiesRange: Satisfies | undefined;
/** semver, loaded only when a plugin declares `kernelApi` (no built-in does): it costs start-up ~15 ms. */
const satisfies = (version: string, range: string) => (satisfiesRange ??= createRequire(import.meta.url)('semver/functions/satisfies.js') as Satisfies)(version, range);

/** Checks `kernelApi` and `requires` across the final set. */
export function checkCompatibility(prepared: PreparedPlugin[], apiVersion: string): void {
  const names = new Set(prepared.map((p) => p.plugin.name));
  for (const { plugin, source } of prepared) {
    if (plugin.kernelApi && !satisfies(apiVersion, plugin.kernelApi))
      throw new PluginError(
        'ASSISTANT_PLUGIN_KERNEL_API',
        `plugin "${plugin.name}" (${source}) needs kernel API ${plugin.kernelApi}, but this assistant provides ${apiVersion}; upgrade assistant or use a version of the plugin built for ${apiVersion}`,
        { plugin: plugin.name, file: source },
      );
    for (const required of plugin.requires ?? [])
      if (!names.has(required))
        throw new PluginError(
          'ASSISTANT_PLUGIN_REQUIRES_MISSING',
          `plugin "${plugin.name}" requires plugin "${required}", which is not loaded; add it to plugins in your config`,
          { plugin: plugin.name, file: source },
        );
  }
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Reads a dotted config key (`context.rolling`) from the config. */
export function configAt(config: AssistantConfig, key: string): unknown {
  let cur: unknown = config;
  for (const part of key.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/**
 * Computes a plugin's options (its config key, overlaid by options in its `plugins:` entry),
 * validates them against `optionsSchema` (filling defaults) and returns them.
 */
export function resolveOptions(
  prepared: PreparedPlugin,
  config: AssistantConfig,
  sourceOf: (pointer: string) => string,
): Record<string, unknown> {
  const { plugin } = prepared;
  const fromKey = plugin.configKey ? configAt(config, plugin.configKey) : undefined;
  const options = {
    ...(fromKey && typeof fromKey === 'object' ? (fromKey as Record<string, unknown>) : {}),
    ...prepared.options,
  };
  if (!plugin.optionsSchema) return options;
  let validate;
  try {
    validate = compileSchema(plugin.optionsSchema);
  } catch (cause) {
    throw new PluginError('ASSISTANT_PLUGIN_INVALID', `plugin "${plugin.name}" has an invalid optionsSchema: ${(cause as Error).message}`, {
      plugin: plugin.name,
      cause,
    });
  }
  if (!validate(options)) {
    const base = plugin.configKey ? `/${plugin.configKey.split('.').join('/')}` : `plugins[${plugin.name}]`;
    const lines = describeSchemaErrors(validate.errors, options, base, plugin.optionsSchema);
    // Name the file that set the offending value (an unknown key: the key itself), not the one that first created the section.
    const first = validate.errors?.[0];
    const unknownKey = first?.keyword === 'additionalProperties' ? `/${escapePointer((first.params as { additionalProperty: string }).additionalProperty)}` : '';
    const file = plugin.configKey ? sourceOf(base + (first?.instancePath ?? '') + unknownKey) : prepared.listedIn;
    throw new ConfigError(
      'ASSISTANT_PLUGIN_OPTIONS_INVALID',
      `invalid options for plugin "${plugin.name}" in ${file}:\n  ${lines.join('\n  ')}`,
      { plugin: plugin.name, file },
    );
  }
  return options;
}
