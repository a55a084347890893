import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError } from '../core/kernel/errors.js';
import { readTrust, sha256, trustFile, trustLocalRules, updateTrust } from '../core/kits/trust/trust-store.js';
import { stableJson } from '../core/util/stable-json.js';
import type { AssistantConfig, ProjectTrust } from '../core/types/config.js';
import type { ConfigLayer } from './layers.js';
import { splitProjectLayer, type WideningSetting } from './widening.js';

/** Project files that plugins read themselves and that widen what the agent does: trusted by content. */
export const TRUSTED_PROJECT_FILES: Record<string, string> = { '.mcp.json': 'MCP servers' };

/** Where "always allow" answers are kept when the configuration does not say (the permissions plugin's default). */
export const DEFAULT_LOCAL_SETTINGS = '.assistant/settings.local.json';

/** How the loader treats a project's widening settings. */
export interface TrustOptions {
  /** Record the project's current widening settings as trusted (`--trust-project`, `assistant trust`). */
  grant?: boolean;
  env: NodeJS.ProcessEnv;
}

/** The outcome for one project: the layers to use and what trust says. */
export interface TrustedLayers {
  layers: ConfigLayer[];
  trust: ProjectTrust;
  /** JavaScript config files that were not run (untrusted): the caller loads them once trusted. */
  needsCode: boolean;
}

/** The project root trust is keyed by: symlinks resolved, so two spellings of one folder share it. */
export function trustRoot(projectRoot: string): string {
  try {
    return realpathSync.native(projectRoot);
  } catch {
    return resolve(projectRoot);
  }
}

/** Project text shown to people: control characters (a key could carry terminal escapes that redraw the question) become `?`. */
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');

const label = (root: string, file: string) => {
  const rel = relative(root, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
};

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The allow rules of a local settings file (empty when it is missing or malformed: the plugin reports that). */
export function localAllowRules(file: string): string[] {
  try {
    const allow = (JSON.parse(readFileSync(file, 'utf8')) as { permissions?: { allow?: unknown } })?.permissions?.allow;
    return Array.isArray(allow) ? allow.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}

/** The local settings file of the merged configuration. */
export function localSettingsFile(root: string, values: AssistantConfig): string {
  const configured = (values.permissions as { localSettings?: unknown } | undefined)?.localSettings;
  return resolve(root, typeof configured === 'string' && configured ? configured : DEFAULT_LOCAL_SETTINGS);
}

/**
 * Splits the project's layers into what always applies and what needs the user's trust, and
 * decides whether the project is trusted: its widening settings, its JavaScript config files and
 * its `.mcp.json` have the digest the user trusted. `below` is the configuration without the project.
 */
export function applyTrust(projectRoot: string, project: ConfigLayer[], below: AssistantConfig, options: TrustOptions): TrustedLayers {
  const root = trustRoot(projectRoot);
  const kept: ConfigLayer[] = [];
  const parts: Array<{ file: string; widening?: WideningSetting[]; code?: string }> = [];
  const ignored: string[] = [];
  for (const layer of project) {
    const file = label(resolve(projectRoot), layer.source);
    if (layer.code !== undefined) {
      parts.push({ file, code: layer.code });
      ignored.push(printable(`${file} (JavaScript config, not run)`));
      continue;
    }
    const split = splitProjectLayer(layer.values, below);
    kept.push({ ...layer, values: split.kept });
    if (split.widening.length) {
      parts.push({ file, widening: split.widening });
      ignored.push(printable(`${file} ${split.widening.map((w) => w.pointer).join(', ')}`));
    }
  }
  const files: Record<string, string> = {};
  for (const [name, what] of Object.entries(TRUSTED_PROJECT_FILES)) {
    const text = readText(join(projectRoot, name));
    if (text === undefined) continue;
    files[name] = sha256(text);
    parts.push({ file: name, code: files[name] });
    ignored.push(`${name} (${what})`);
  }
  const required = parts.length > 0;
  const digest = required ? sha256(stableJson(parts)) : '';
  let trusted = !required;
  if (required && options.grant) {
    recordTrust(root, options.env, () => updateTrust(root, (record) => ({ ...record, config: digest }), options.env));
    trusted = true;
  } else if (required) trusted = readTrust(root, options.env)?.config === digest;
  const trust: ProjectTrust = { trusted, ignored: trusted ? [] : ignored, files: trusted ? files : {}, root };
  return { layers: trusted ? project : kept, trust, needsCode: trusted && project.some((l) => l.code !== undefined) };
}

/**
 * Local "always allow" rules the user did not give: planted by a command or another program.
 * Recorded as trusted when `grant` is set. Listed for the warning.
 */
export function checkLocalRules(trust: ProjectTrust, values: AssistantConfig, options: TrustOptions): void {
  const file = localSettingsFile(trust.root, values);
  if (!existsSync(file)) return;
  const rules = localAllowRules(file);
  if (options.grant) return void recordTrust(trust.root, options.env, () => trustLocalRules(trust.root, rules, options.env));
  const given = new Set(readTrust(trust.root, options.env)?.localRules ?? []);
  const planted = rules.filter((rule) => !given.has(sha256(rule)));
  if (planted.length) trust.ignored.push(printable(`${label(trust.root, file)} allow ${planted.join(', ')}`));
}

/** Writes the trust record; a failure says where and why instead of a bare file-system error. */
function recordTrust(root: string, env: NodeJS.ProcessEnv, write: () => unknown): void {
  try {
    write();
  } catch (cause) {
    const file = trustFile(root, env);
    throw new ConfigError('ASSISTANT_CONFIG_WRITE_FAILED', `cannot record trust of ${root} in ${file}: ${(cause as Error).message}; nothing was trusted`, { file, cause });
  }
}

/** One line for people: what was ignored and how to trust the project. */
export function trustWarning(trust: ProjectTrust): string | undefined {
  if (!trust.ignored.length) return undefined;
  return `assistant: this project is not trusted, so its settings that widen what assistant may do were ignored: ${trust.ignored.join('; ')}. If you wrote them, run \`assistant trust\` (or pass --trust-project) to apply them.`;
}
