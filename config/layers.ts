import { dirname } from 'node:path';
import type { AssistantConfig, PluginEntry, ResolvedPluginEntry } from '../core/types/config.js';

/** One layer of configuration: its values and where they came from. */
export interface ConfigLayer {
  values: AssistantConfig;
  /** A file path, or `defaults` / `flags`. */
  source: string;
  /** Directory relative plugin paths resolve from. */
  baseDir: string;
  /** sha256 of a JavaScript config file that was not run (its project is not trusted yet); `values` is then empty. */
  code?: string;
}

/** The result of stacking layers. */
export interface MergedLayers {
  values: AssistantConfig;
  sources: Record<string, string>;
  plugins: ResolvedPluginEntry[];
  disabled: string[];
  /** For each disabled name, the layer that disabled it. */
  disabledIn: Record<string, string>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function markSources(value: unknown, pointer: string, source: string, sources: Record<string, string>): void {
  // A replaced subtree forgets where its old leaves came from (one pass over the sources, not one per leaf).
  for (const key of Object.keys(sources)) if (key.startsWith(pointer + '/')) delete sources[key];
  markLeaves(value, pointer, source, sources);
}

function markLeaves(value: unknown, pointer: string, source: string, sources: Record<string, string>): void {
  sources[pointer] = source;
  if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) markLeaves(v, `${pointer}/${escapeKey(k)}`, source, sources);
}

/** Lists that accumulate across layers instead of being replaced: every layer's rules apply. */
const ACCUMULATING = new Set(['/permissions/allow', '/permissions/ask', '/permissions/deny', '/permissions/additionalDirectories']);

function mergeInto(target: Record<string, unknown>, overlay: Record<string, unknown>, pointer: string, source: string, sources: Record<string, string>) {
  for (const [key, value] of Object.entries(overlay)) {
    if (value === undefined) continue;
    const path = `${pointer}/${escapeKey(key)}`;
    if (ACCUMULATING.has(path) && Array.isArray(value) && Array.isArray(target[key])) {
      const merged = [...(target[key] as unknown[])];
      for (const item of value) if (!merged.includes(item)) merged.push(item);
      target[key] = merged;
      sources[path] = sources[path] === source ? source : 'merged';
    } else if (isPlainObject(value) && isPlainObject(target[key])) {
      target[key] = { ...(target[key] as Record<string, unknown>) };
      sources[path] ??= source;
      mergeInto(target[key] as Record<string, unknown>, value, path, source, sources);
    } else {
      target[key] = isPlainObject(value) ? structuredClone(value) : Array.isArray(value) ? [...value] : value;
      markSources(value, path, source, sources);
    }
  }
}

/**
 * Stacks layers, lowest first: objects merge key by key, anything else (arrays included) is
 * replaced, except `plugins`, whose entries accumulate so every layer can add, configure or
 * disable plugins, and the permission rule lists, which accumulate so every layer's rules apply.
 */
export function mergeLayers(layers: ConfigLayer[]): MergedLayers {
  const values: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  const plugins: ResolvedPluginEntry[] = [];
  const disabled = new Set<string>();
  const disabledIn: Record<string, string> = {};
  for (const layer of layers) {
    const { plugins: entries, extends: _extends, ...rest } = layer.values;
    mergeInto(values, rest, '', layer.source, sources);
    for (const entry of (entries ?? []) as PluginEntry[]) {
      const [spec, options] = typeof entry === 'string' ? [entry, {}] : [entry[0], entry[1] ?? {}];
      if (options === false) {
        disabled.add(spec);
        disabledIn[spec] = layer.source;
        continue;
      }
      disabled.delete(spec);
      plugins.push({ spec, options, baseDir: layer.baseDir, source: layer.source });
    }
  }
  if (plugins.length || disabled.size) {
    values.plugins = plugins.map((p) => (Object.keys(p.options).length ? [p.spec, p.options] : p.spec));
    sources['/plugins'] = 'merged';
  }
  return { values: values as AssistantConfig, sources, plugins, disabled: [...disabled], disabledIn };
}

/** The directory of a config file (for resolving its relative paths). */
export function layerDir(file: string): string {
  return dirname(file);
}
