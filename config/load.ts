import { existsSync, readFileSync, statSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { cosmiconfig, defaultLoaders, type PublicExplorer } from 'cosmiconfig';
import { ConfigError } from '../core/kernel/errors.js';
import { PROJECT_CONFIG_FILES } from '../core/kernel/control-files.js';
import { userDirs } from '../core/util/paths.js';
import { resolveModule } from '../core/kernel/resolve-module.js';
import { compileSchema, describeSchemaErrors } from '../core/util/json-validate.js';
import type { AssistantConfig, ResolvedConfig } from '../core/types/config.js';
import { absoluteDirectories } from './additional-dirs.js';
import { mergeLayers, type ConfigLayer } from './layers.js';
import { coreConfigSchema } from './schema.js';
import { defaultLayer } from './defaults.js';
import { sha256 } from '../core/kits/trust/trust-store.js';
import { applyTrust, checkLocalRules } from './trust.js';

/** File names searched in each directory, first match wins. */
export const SEARCH_PLACES = PROJECT_CONFIG_FILES;

/** File names of the user's global config in its directory. */
export const USER_CONFIG_PLACES = ['config.json', 'config.yaml', 'config.yml', 'config.js', 'config.mjs', 'config.cjs', '.assistantrc'];

/** How to find and layer the configuration. */
export interface LoadConfigOptions {
  cwd: string;
  /** Use this file as the project config instead of searching (`--config`). */
  configFile?: string;
  /** Highest layer: values from CLI flags. */
  flags?: AssistantConfig;
  env?: NodeJS.ProcessEnv;
  /** Skip the user's global config (tests, `--bare`). */
  noUserConfig?: boolean;
  /**
   * Hold the project's widening settings back until the user trusts the project (the CLI always
   * does). Embedders that choose the directory themselves may leave it off.
   */
  enforceTrust?: boolean;
  /** Trust the project's current settings and record that (`--trust-project`, `assistant trust`). */
  grantTrust?: boolean;
}

/**
 * JavaScript configs are imported, never require()d: cosmiconfig's require() fallback hides the real
 * error of a broken ES module behind "Cannot require() ES Module …".
 */
async function importConfig(file: string): Promise<unknown> {
  return ((await import(pathToFileURL(await realpath(file)).href)) as { default?: unknown }).default;
}
/**
 * JSON configs go through JSON.parse, the parser cosmiconfig's own loader (parse-json) wraps; only
 * a file that does not parse goes to that loader, for its message with a code frame. A valid file
 * then costs no parse-json and @babel/code-frame modules at start-up.
 */
function loadJson(file: string, content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return defaultLoaders['.json'](file, content);
  }
}
const JS_LOADERS = { '.js': importConfig, '.mjs': importConfig, '.cjs': importConfig, '.json': loadJson };

let explorer: PublicExplorer | undefined;
function getExplorer(): PublicExplorer {
  explorer ??= cosmiconfig('assistant', { searchPlaces: SEARCH_PLACES, searchStrategy: 'none', cache: false, loaders: JS_LOADERS });
  return explorer;
}

/**
 * The kinds of file a config may be, by extension ('' is `.assistantrc`: JSON or YAML). Any other is
 * refused before cosmiconfig sees it: its own loaders compile and run TypeScript (.ts, .mts, .cts),
 * which would skip the trust a JavaScript config waits for (`extends: "./x.ts"` in a project not trusted).
 */
const CONFIG_KINDS = new Set(['', '.json', '.yaml', '.yml', '.js', '.mjs', '.cjs']);

async function loadFile(file: string): Promise<AssistantConfig | undefined> {
  if (!CONFIG_KINDS.has(extname(file).toLowerCase()))
    throw new ConfigError('ASSISTANT_CONFIG_PARSE', `${file}: not a kind of config file assistant reads (JSON, YAML or JavaScript: .json, .yaml, .yml, .js, .mjs, .cjs, or no extension)`, { file });
  try {
    // JSON needs nothing of cosmiconfig (~5 ms to start): read and parsed here, empty as cosmiconfig
    // says empty. Not package.json, whose config is its "assistant" key (cosmiconfig's packageProp).
    if (extname(file).toLowerCase() === '.json' && basename(file) !== 'package.json') {
      const content = readFileSync(file, 'utf8');
      return content.trim() ? normalizeModule(loadJson(file, content), file) : {};
    }
    const result = await getExplorer().load(file);
    if (!result || result.isEmpty) return {};
    return normalizeModule(result.config, file);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ConfigError('ASSISTANT_CONFIG_NOT_FOUND', `config file not found: ${file}`, { file, cause });
    throw parseError(file, cause);
  }
}

function normalizeModule(config: unknown, file: string): AssistantConfig {
  const value = config && typeof config === 'object' && 'default' in config && Object.keys(config).length === 1 ? (config as { default: unknown }).default : config;
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${file}: /: must be an object (got ${Array.isArray(value) ? 'an array' : typeof value})`, { file });
  return value as AssistantConfig;
}

function parseError(file: string, cause: unknown): ConfigError {
  return new ConfigError('ASSISTANT_CONFIG_PARSE', `${file}: cannot be parsed: ${parseReason(cause)}`, { file, cause });
}

/**
 * The parser's reason on one line. cosmiconfig's messages open with a bare "YAML Error in <file>:" /
 * "JSON Error in <file>:" header and carry code frames, so the reason is picked out rather than the first line.
 */
function parseReason(cause: unknown): string {
  const error = cause as { reason?: unknown; mark?: { line: number; column: number }; message?: unknown };
  if (typeof error?.reason === 'string' && error.mark)
    return `${error.reason} (line ${error.mark.line + 1}, column ${error.mark.column + 1})`;
  // The code frame is coloured when the terminal has colours: judge its lines without the escapes.
  const raw = stripVTControlCharacters(typeof error?.message === 'string' ? error.message : String(cause));
  const lines = raw
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^(YAML|JSON) Error in /.test(line) && !/^[>|\d\s-]*\|/.test(line) && !/^-*\^$/.test(line));
  const reason = (lines[0] ?? raw.split('\n')[0]!).replace(/^(YAMLException|JSONError|SyntaxError): /, '');
  return reason.replace(/ while parsing '.*'$/, '');
}

/**
 * The nearest project config file from `from` up, found by name without loading it: a JavaScript
 * config runs code when loaded, which must wait until the project is trusted.
 */
async function searchUp(from: string): Promise<string | undefined> {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    for (const name of SEARCH_PLACES) {
      const file = join(dir, name);
      if (!existsSync(file) || !statSync(file).isFile()) continue;
      if (name !== 'package.json' || packageHasConfig(file)) return file;
    }
    // The repository's root is as far as a project goes: a config in a folder above it (a shared
    // temp or home folder) is not this project's, and the rest of the walk is wasted stat calls.
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

/** Whether a package.json carries an `assistant` key (it is the project config only then). */
function packageHasConfig(file: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw parseError(file, cause);
  }
  return !!data && typeof data === 'object' && Object.prototype.hasOwnProperty.call(data, 'assistant');
}

function findGitRoot(from: string): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

const JS_CONFIG = new Set(['.js', '.mjs', '.cjs']);

/** Expands a file and the files it `extends` into layers, lowest first. Without `runCode`, a JavaScript file is not imported: its layer only carries its digest. */
async function fileLayers(file: string, seen: string[] = [], runCode = true): Promise<ConfigLayer[]> {
  if (seen.includes(file))
    throw new ConfigError('ASSISTANT_CONFIG_EXTENDS_CYCLE', `extends loops: ${[...seen, file].join(' → ')}`, { file });
  if (!runCode && JS_CONFIG.has(extname(file).toLowerCase())) {
    let text: Buffer;
    try {
      text = readFileSync(file);
    } catch (cause) {
      throw new ConfigError('ASSISTANT_CONFIG_NOT_FOUND', `config file not found: ${file}`, { file, cause });
    }
    return [{ values: {}, source: file, baseDir: dirname(file), code: sha256(text) }];
  }
  const values = await loadFile(file);
  if (!values) return [];
  const layers: ConfigLayer[] = [];
  const parents = values.extends === undefined ? [] : Array.isArray(values.extends) ? values.extends : [values.extends];
  for (const parent of parents) {
    if (typeof parent !== 'string')
      throw new ConfigError('ASSISTANT_CONFIG_INVALID', `${file}: /extends: must be a string or a list of strings`, { file });
    const target = resolveModule(parent, dirname(file)) ?? resolveExtendsFile(parent, dirname(file));
    if (!target)
      throw new ConfigError('ASSISTANT_CONFIG_NOT_FOUND', `${file}: /extends: cannot find "${parent}" (a path relative to the file, or an installed package)`, {
        file,
      });
    layers.push(...(await fileLayers(target, [...seen, file], runCode)));
  }
  layers.push({ values, source: file, baseDir: dirname(file) });
  return layers;
}

function resolveExtendsFile(spec: string, baseDir: string): string | undefined {
  const path = resolve(baseDir, spec);
  for (const candidate of [path, `${path}.json`, `${path}.yaml`, `${path}.yml`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

async function userLayers(env: NodeJS.ProcessEnv): Promise<ConfigLayer[]> {
  const dir = userDirs(env).config;
  if (!existsSync(dir)) return [];
  for (const place of USER_CONFIG_PLACES) {
    const file = join(dir, place);
    if (existsSync(file)) return fileLayers(file);
  }
  return [];
}

/** Validates one layer against the core schema; the error names the file and each bad JSON path. */
export function validateLayer(layer: ConfigLayer): void {
  validateLayers([layer]);
}

/** Validates every layer against the core schema and reports every bad layer at once, each with its file and JSON paths. */
export function validateLayers(layers: ConfigLayer[]): void {
  const validate = compileSchema(coreConfigSchema);
  const reports: string[] = [];
  let file: string | undefined;
  for (const layer of layers) {
    if (validate(layer.values)) continue;
    const lines = describeSchemaErrors(validate.errors, layer.values, '', coreConfigSchema);
    reports.push(`invalid configuration in ${layer.source}:\n  ${lines.join('\n  ')}`);
    file ??= layer.source;
  }
  if (reports.length) throw new ConfigError('ASSISTANT_CONFIG_INVALID', reports.join('\n'), { file });
}

/** Finds, loads, layers and validates the configuration for a directory. */
export async function loadConfig(options: LoadConfigOptions): Promise<ResolvedConfig> {
  const env = options.env ?? process.env;
  const cwd = resolve(options.cwd);
  const projectFile = options.configFile ? resolve(cwd, options.configFile) : await searchUp(cwd);
  if (options.configFile && !existsSync(projectFile!))
    throw new ConfigError('ASSISTANT_CONFIG_NOT_FOUND', `config file not found: ${projectFile} (from --config)`, { file: projectFile });
  const projectRoot = projectFile && !options.configFile ? dirname(projectFile) : (findGitRoot(cwd) ?? cwd);

  const layers: ConfigLayer[] = [defaultLayer()];
  if (!options.noUserConfig) layers.push(...(await userLayers(env)));
  const enforce = options.enforceTrust || options.grantTrust;
  let project = projectFile ? await fileLayers(projectFile, [], !enforce) : [];
  let trust: ResolvedConfig['trust'];
  if (enforce) {
    // The user's own layers are trusted; the project's are judged against them.
    validateLayers([...layers, ...project]);
    const outcome = applyTrust(projectRoot, project, mergeLayers(layers).values, { grant: options.grantTrust, env });
    trust = outcome.trust;
    project = outcome.needsCode ? await fileLayers(projectFile!) : outcome.layers;
  }
  layers.push(...project);
  if (options.flags) layers.push({ values: options.flags, source: 'flags', baseDir: cwd });

  validateLayers(layers);
  const files = layers.map((l) => l.source).filter((s) => s !== 'defaults' && s !== 'flags');
  const merged = mergeLayers(layers.map(absoluteDirectories));
  if (trust) checkLocalRules(trust, merged.values, { grant: options.grantTrust, env });
  return { ...merged, files, projectFile, projectRoot, cwd, ...(trust ? { trust } : {}) };
}
