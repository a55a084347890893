import { LRUCache } from 'lru-cache';
import { loadShellParser, shellParserReady } from './parser.js';
import type { ShellAnalysis } from './types.js';
import { ScriptWalker, type WalkOptions } from './walk.js';

const cache = new LRUCache<string, ShellAnalysis>({ max: 2000 });

function key(source: string, options: WalkOptions): string {
  return JSON.stringify([source, options.cwd, options.home, options.allowSudo, options.trustTests]);
}

/** Judges a command string synchronously; undefined while the parser is not loaded yet. */
export function analyzeShellSync(source: string, options: WalkOptions): ShellAnalysis | undefined {
  if (!shellParserReady()) return undefined;
  const id = key(source, options);
  const cached = cache.get(id);
  if (cached) return cached;
  const analysis = new ScriptWalker(options).run(source);
  cache.set(id, analysis);
  return analysis;
}

/** Judges a command string: every simple command, what it reads and writes, and what must never run. */
export async function analyzeShell(source: string, options: WalkOptions): Promise<ShellAnalysis> {
  await loadShellParser();
  return analyzeShellSync(source, options)!;
}
