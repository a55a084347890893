import type { ResolvedConfig } from '../types/config.js';

/** The file (or layer) that set the value at `pointer` (a JSON pointer), or the nearest parent that has one. */
export function sourceFor(config: ResolvedConfig, pointer: string): string {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    if (config.sources[p]) return config.sources[p]!;
    if (!p) return config.projectFile ?? 'defaults';
  }
}
