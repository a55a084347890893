import type { ResolvedConfig } from '../core/types/config.js';
import type { EffectiveProvider } from './effective-provider.js';

function flatten(value: unknown, pointer: string, out: Array<[string, unknown]>): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, `${pointer}/${k}`, out);
  } else out.push([pointer, value]);
}

/** The layer that set the value at `pointer` (or the nearest parent that has one). */
export function sourceOf(sources: Record<string, string>, pointer: string): string {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (sources[p]) return sources[p]!;
    if (!p) return 'defaults';
  }
}

/** `assistant config show --json`: the resolved values, where each came from, the plugin list, and the provider a run would use. */
export function describeConfigJson(resolved: ResolvedConfig, effective?: EffectiveProvider): string {
  const { values, sources, files, projectRoot, plugins, disabled } = resolved;
  return JSON.stringify({ values, sources, files, projectRoot, plugins, disabled, ...(effective ? { effective } : {}) }, null, 2) + '\n';
}

/** The provider lines: what a run would talk to. */
function effectiveLines(effective: EffectiveProvider): string[] {
  return [
    'effective:',
    `  provider = ${effective.provider}    # ${effective.providerSource}`,
    `  model = ${effective.model ?? '(unknown)'}    # ${effective.modelSource}`,
    ...(effective.baseURL ? [`  base URL = ${effective.baseURL}    # ${effective.baseURLSource}`] : []),
    ...(effective.problem ? [`  problem: ${effective.problem}`] : []),
    '',
  ];
}

/**
 * `assistant config show`: the provider a run would use, then one line per value with the file it
 * came from, then the plugins. The built-in price table (some 60 entries) is one line unless `all`;
 * prices set in a config file are always listed.
 */
export function describeConfig(resolved: ResolvedConfig, options: { effective?: EffectiveProvider; all?: boolean } = {}): string {
  const rows: Array<[string, unknown]> = [];
  const { plugins: _plugins, ...values } = resolved.values;
  flatten(values, '', rows);
  const line = ([pointer, value]: [string, unknown]) => `${pointer.slice(1).replace(/\//g, '.')} = ${JSON.stringify(value)}    # ${sourceOf(resolved.sources, pointer)}`;
  const folded = options.all ? [] : rows.filter(([pointer]) => pointer.startsWith('/pricing/') && sourceOf(resolved.sources, pointer) === 'defaults');
  const models = new Set(folded.map(([pointer]) => pointer.split('/').slice(0, 4).join('/')));
  const providers = new Set(folded.map(([pointer]) => pointer.split('/')[2]));
  const lines = [
    `project root: ${resolved.projectRoot}`,
    `files (lowest first): ${resolved.files.length ? resolved.files.join(', ') : '(none: built-in defaults only)'}`,
    '',
    ...(options.effective ? effectiveLines(options.effective) : []),
    ...rows.filter((row) => !folded.includes(row)).map(line),
    ...(folded.length ? [`pricing = built-in prices of ${models.size} models (${[...providers].join(', ')}; config show --all lists them)    # defaults`] : []),
    '',
    'plugins:',
    ...resolved.plugins.map((p) => `  ${p.spec}${Object.keys(p.options).length ? ' ' + JSON.stringify(p.options) : ''}    # ${p.source}`),
    ...resolved.disabled.map((d) => `  ${d} (disabled)`),
  ];
  return lines.join('\n') + '\n';
}
