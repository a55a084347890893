// Shared by the bench scripts: statistics and writing a named section of docs/benchmarks.md.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

/** Median of a list of numbers. */
export const median = (values) => percentile(values, 50);

/** One line describing the machine the numbers were taken on. */
export function machine() {
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}`;
}

/** Replaces (or appends) the section between `<!-- bench:name -->` markers in docs/benchmarks.md. */
export function writeSection(name, markdown) {
  const file = new URL('../../docs/benchmarks.md', import.meta.url);
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\nMeasured by the scripts in `bench/` (`npm run bench`, or one script with `node bench/<name>.mjs`).\n';
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text);
}
