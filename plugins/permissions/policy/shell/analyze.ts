import { LRUCache } from 'lru-cache';
import { loadShellParser, ShellParserNotReady } from './parser.js';
import type { ShellAnalysis } from './types.js';
import { ScriptWalker, type WalkOptions } from './walk.js';

const cache = new LRUCache<string, ShellAnalysis>({ max: 2000 });

function key(source: string, options: WalkOptions): string {
  return JSON.stringify([source, options.cwd, options.home, options.allowSudo, options.trustTests]);
}

/**
 * Judges a command string synchronously. Simple commands need no grammar (mini-parser.ts); the
 * rest, payloads (`sh -c`, `eval`) included, need tree-sitter: undefined while it is not loaded.
 */
export function analyzeShellSync(source: string, options: WalkOptions): ShellAnalysis | undefined {
  const id = key(source, options);
  const cached = cache.get(id);
  if (cached) return cached;
  let analysis: ShellAnalysis;
  try {
    analysis = new ScriptWalker(options).run(source);
  } catch (error) {
    if (error instanceof ShellParserNotReady) return undefined;
    throw error;
  }
  cache.set(id, analysis);
  return analysis;
}

/** Judges a command string: every simple command, what it reads and writes, and what must never run. */
export async function analyzeShell(source: string, options: WalkOptions): Promise<ShellAnalysis> {
  const analysis = analyzeShellSync(source, options);
  if (analysis) return analysis;
  await loadShellParser();
  return analyzeShellSync(source, options)!;
}
