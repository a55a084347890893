import type { ResolvedConfig } from '../core/types/config.js';

function flatten(value: unknown, pointer: string, out: Array<[string, unknown]>): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, `${pointer}/${k}`, out);
  } else out.push([pointer, value]);
}

function sourceOf(sources: Record<string, string>, pointer: string): string {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (sources[p]) return sources[p]!;
    if (!p) return 'defaults';
  }
}

/** `assistant config show --json`: the resolved values, where each came from, and the plugin list. */
export function describeConfigJson(resolved: ResolvedConfig): string {
  const { values, sources, files, projectRoot, plugins, disabled } = resolved;
  return JSON.stringify({ values, sources, files, projectRoot, plugins, disabled }, null, 2) + '\n';
}

/** `assistant config show`: one line per value with the file it came from, then the plugins. */
export function describeConfig(resolved: ResolvedConfig): string {
  const rows: Array<[string, unknown]> = [];
  const { plugins: _plugins, ...values } = resolved.values;
  flatten(values, '', rows);
  const lines = [
    `project root: ${resolved.projectRoot}`,
    `files (lowest first): ${resolved.files.length ? resolved.files.join(', ') : '(none: built-in defaults only)'}`,
    '',
    ...rows.map(([pointer, value]) => `${pointer.slice(1).replace(/\//g, '.')} = ${JSON.stringify(value)}    # ${sourceOf(resolved.sources, pointer)}`),
    '',
    'plugins:',
    ...resolved.plugins.map((p) => `  ${p.spec}${Object.keys(p.options).length ? ' ' + JSON.stringify(p.options) : ''}    # ${p.source}`),
    ...resolved.disabled.map((d) => `  ${d} (disabled)`),
  ];
  return lines.join('\n') + '\n';
}
