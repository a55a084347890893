import type { ContextMeasure, ContextPart } from '../../core/index.js';
import type { LedgerTotals, ModelPrice, RequestRecord } from '../../core/kits/context/index.js';

const LABELS: Record<ContextPart, string> = {
  system: 'system prompt',
  tools: 'tool definitions',
  memory: 'memory files',
  projectMap: 'project map',
  summary: 'summary',
  history: 'history',
  todo: 'todo reminder',
};
const BAR = 30;

const n = (value: number) => value.toLocaleString('en-US');
/** 950, 1.2k, 34k, 1.5M: a table cell. */
const short = (value: number) =>
  value < 1000 ? String(value) : value < 1e6 ? `${(value / 1000).toFixed(value < 1e4 ? 1 : 0).replace(/\.0$/, '')}k` : `${(value / 1e6).toFixed(1).replace(/\.0$/, '')}M`;
const pct = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(1)}%` : '0%');

function bar(value: number, whole: number): string {
  const filled = whole ? Math.min(BAR, Math.round((value / whole) * BAR)) : 0;
  return '█'.repeat(filled) + '░'.repeat(BAR - filled);
}

/** `/context`: the window by part, as a text bar chart. */
export function formatContext(model: string, measure: ContextMeasure, last: RequestRecord | undefined): string {
  const { window } = measure;
  const rows: Array<[string, number]> = (Object.keys(LABELS) as ContextPart[]).map((p) => [LABELS[p], measure.parts[p]]);
  rows.push(['output reserve', measure.outputReserve]);
  // The tokenizer's possible error on content not yet reported by the provider, kept free too.
  if (measure.margin > 0) rows.push(['estimate margin', measure.margin]);
  rows.push(['free', Math.max(0, measure.free)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [
    `Context of ${model}: ${n(measure.total)} of ${n(window)} tokens (${pct(measure.total, window)}), ${n(measure.outputReserve)} reserved for output` +
      (measure.basis === 'reported' ? ' (counted from reported usage and the tokenizer)' : ' (estimated by the tokenizer)'),
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${bar(value, window)} ${n(value).padStart(9)}  ${pct(value, window).padStart(6)}`),
  ];
  if (measure.free < 0) lines.push(`  over by ${n(-measure.free)} tokens: the next request will be compacted or refused`);
  if (last) lines.push(`Last request: ${n(last.usage.inputTokens + last.usage.cacheReadTokens + last.usage.cacheWriteTokens)} input tokens, ${n(last.usage.cacheReadTokens)} read from the cache, ${n(last.usage.cacheWriteTokens)} written to it`);
  return lines.join('\n');
}

const money = (usd: number) => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
const perM = (usd: number | undefined) => (usd === undefined ? '-' : `$${usd}`);

/** `/cost`: the session's spend, cache economics and the latest requests. */
export function formatCost(totals: LedgerTotals, records: readonly RequestRecord[], prices: Array<{ model: string; price?: ModelPrice }>, recent = 5): string {
  const u = totals.usage;
  const input = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  const compactions = records.filter((r) => r.purpose === 'compaction').length;
  const lines = [
    `Cost: ${money(totals.costUsd)} for ${totals.requests} requests${compactions ? ` (${compactions} for compaction)` : ''}`,
    `  input ${n(input)} tokens: ${n(u.cacheReadTokens)} read from the cache (${pct(u.cacheReadTokens, input)}), ${n(u.cacheWriteTokens)} written to it, ${n(u.inputTokens)} uncached; output ${n(u.outputTokens)}`,
  ];
  lines.push(...modelTable(records));
  for (const { model, price } of prices)
    lines.push(
      price
        ? `  ${model}: ${perM(price.input)} input, ${perM(price.output)} output, ${perM(price.cacheRead ?? price.input)} cache read, ${perM(price.cacheWrite ?? price.input)} cache write per million tokens`
        : `  ${model}: no price known, not counted (add it under pricing in .assistantrc)`,
    );
  const latest = records.slice(-recent);
  if (latest.length) lines.push('Latest requests:');
  for (const r of latest)
    lines.push(
      `  #${r.seq} ${r.purpose === 'compaction' ? 'summary' : 'turn'}${r.agentId ? ` (${r.agentId})` : ''}: read ${n(r.usage.cacheReadTokens)}, wrote ${n(r.usage.cacheWriteTokens)}, ` +
        `uncached ${n(r.usage.inputTokens)}, output ${n(r.usage.outputTokens)}${r.costUsd === undefined ? '' : `, ${money(r.costUsd)}`}`,
    );
  return lines.join('\n');
}

/** Spend per `provider/model` (a /model switch or a sub-agent on another model gets its own row). */
function modelTable(records: readonly RequestRecord[]): string[] {
  const byModel = new Map<string, { input: number; output: number; read: number; write: number; cost?: number }>();
  for (const r of records) {
    const key = `${r.provider}/${r.model}`;
    const row = byModel.get(key) ?? { input: 0, output: 0, read: 0, write: 0 };
    row.input += r.usage.inputTokens;
    row.output += r.usage.outputTokens;
    row.read += r.usage.cacheReadTokens;
    row.write += r.usage.cacheWriteTokens;
    if (r.costUsd !== undefined) row.cost = (row.cost ?? 0) + r.costUsd;
    byModel.set(key, row);
  }
  if (!byModel.size) return [];
  const header = ['model', 'input', 'output', 'cache read', 'cache write', 'cost'];
  const rows = [...byModel].map(([model, r]) => [model, short(r.input), short(r.output), short(r.read), short(r.write), r.cost === undefined ? 'n/a' : money(r.cost)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) => '  ' + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), ...rows.map(line)];
}
