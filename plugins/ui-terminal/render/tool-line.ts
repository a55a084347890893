import type { Json, ToolCallPart, ToolCategory, ToolResultPart } from '../../../core/index.js';
import type { Style } from '../terminal/style.js';
import { sanitize, truncate, visibleWidth, breakLine } from '../terminal/width.js';

/** A finished tool call, as the transcript keeps it for one-line display and details on demand. */
export interface ToolRecord {
  call: ToolCallPart;
  summary: string;
  result?: ToolResultPart;
  metadata?: { [key: string]: Json };
  durationMs?: number;
  category?: ToolCategory;
  /** Set when the permission engine refused the call. */
  denied?: string;
  /** How deep the call is nested: 0 for the main agent, 1 for a sub-agent's call, and so on. */
  depth?: number;
  /** Lines of output shown before folding (default 3); a `!command` the user ran shows more. */
  previewLines?: number;
  /** Replaces the computed outcome and the output preview (a call that started sub-agents shows their work instead). */
  note?: string;
}

/** The indent of a call nested `depth` levels under sub-agent calls. */
export function nestIndent(depth = 0): string {
  return '  '.repeat(depth);
}

/** Lines of a preview shown under a tool line before folding. */
const PREVIEW_LINES = 3;

/** A duration the way people read it: `850 ms`, `6.6 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'unknown time';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * What a call's line names after the tool: for a shell command the command itself, then the
 * model's description (a misleading description must not hide what ran); otherwise the tool's summary.
 */
export function callSummary(input: Record<string, unknown>, toolSummary: string | undefined): string {
  const { command, description } = input;
  if (typeof command === 'string' && command.trim()) {
    const first = command.trim().split('\n')[0]!;
    const more = command.trim().includes('\n') ? ' …' : '';
    const about = typeof description === 'string' && description.trim() ? ` · ${description.trim().split('\n')[0]}` : '';
    return `${first}${more}${about}${input.network === true ? ' (with network)' : ''}`;
  }
  return toolSummary || fallbackSummary(input);
}

/** The key argument of a call when its tool gave no summary: a path, command, pattern or URL. */
export function fallbackSummary(input: Record<string, unknown>): string {
  for (const key of ['file_path', 'path', 'command', 'pattern', 'url', 'query', 'description', 'prompt']) {
    const value = input[key];
    if (typeof value === 'string' && value) return value;
  }
  const first = Object.values(input).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first : '';
}

/** Text of a tool result, images counted. */
export function resultText(result: ToolResultPart | undefined): string {
  if (!result) return '';
  return result.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mediaType}]`)).join('\n');
}

const countLines = (text: string) => (text ? text.replace(/\n$/, '').split('\n').length : 0);
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const num = (v: Json | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** What a call came to, in a few words: "120 lines", "exit 1", "+3 −1", or the first line of an error. */
export function outcome(record: ToolRecord): string {
  if (record.denied) return `denied: ${record.denied}`;
  if (record.note !== undefined) return record.note;
  const text = resultText(record.result);
  const meta = record.metadata ?? {};
  const exit = num(meta.exitCode) ?? num(meta.exit_code) ?? exitFromText(text);
  if (exit !== undefined && record.category === 'execute') return `→ exit ${exit}`;
  if (record.result?.isError) return `✗ ${errorLines(text)[0]?.trim() ?? 'failed, no output'}`;
  const added = num(meta.added) ?? num(meta.linesAdded);
  const removed = num(meta.removed) ?? num(meta.linesRemoved);
  if (added !== undefined || removed !== undefined) return `+${added ?? 0} −${removed ?? 0}`;
  // A write says what it did, not "Created src/new.js (1 line, 20 bytes)." after the path shown already.
  if (typeof meta.created === 'boolean') return `${meta.created ? 'created' : 'overwritten'}${num(meta.lines) !== undefined ? `, ${plural(num(meta.lines)!, 'line')}` : ''}`;
  const files = num(meta.files) ?? num(meta.matches);
  if (files !== undefined) return num(meta.files) !== undefined ? plural(files, 'file') : plural(files, 'match', 'matches');
  const entries = num(meta.entries);
  if (entries !== undefined) return plural(entries, 'entry', 'entries');
  const lines = num(meta.lines) ?? countLines(text);
  if (record.category === 'read' || record.category === 'execute') return plural(lines, 'line');
  return firstLine(text);
}

function exitFromText(text: string): number | undefined {
  const m = /\bexit(?:ed with)?(?: code)?[:\s]+(-?\d+)\b/i.exec(text.slice(0, 400));
  return m ? Number(m[1]) : undefined;
}

/** The lines of an error worth reading: a command's "(no output)" placeholder says nothing about why it failed. */
function errorLines(text: string): string[] {
  return sanitize(text)
    .split('\n')
    .filter((l) => l.trim() && l.trim() !== NO_OUTPUT);
}

const NO_OUTPUT = '(no output)';

function firstLine(text: string): string {
  return sanitize(text).split('\n').find((l) => l.trim())?.trim() ?? '';
}

/** The one tidy line for a call, plus a folded preview of its output where that helps. */
export function toolLines(record: ToolRecord, style: Style, width: number): string[] {
  const failed = record.denied !== undefined || record.result?.isError === true;
  const bullet = failed ? style.red('●') : style.green('●');
  const indent = nestIndent(record.depth);
  const what = `${style.bold(record.call.name)}${record.summary ? ' ' + sanitize(record.summary).split('\n')[0] : ''}`;
  const call = `${indent}${bullet} ${what}`;
  const result = outcome(record);
  const took = record.durationMs !== undefined && record.durationMs >= 1000 ? ` · ${(record.durationMs / 1000).toFixed(1)}s` : '';
  // One line: a long outcome (a refusal's reason) gives way before the call's own half of the width.
  const room = Math.max(8, width - Math.min(visibleWidth(call), Math.floor(width / 2)) - visibleWidth(` ()${took}`));
  const brief = truncate(sanitize(result).split('\n')[0]!, room);
  const tail = brief.startsWith('→') ? ` ${brief}${took}` : brief ? ` (${brief}${took})` : took;
  const head = truncate(call, Math.max(10, width - visibleWidth(tail)));
  const lines = [head + (failed ? style.red(tail) : style.gray(tail))];
  const showPreview = record.note === undefined && (failed ? !record.denied : record.previewLines !== undefined || record.category === 'execute' || record.category === 'network' || record.category === 'other');
  if (!showPreview) return lines;
  const output = sanitize(resultText(record.result)).replace(/\n+$/, '');
  if (!output) return lines;
  // An error shows what follows the line that is already its outcome.
  const all = result.startsWith('✗') ? errorLines(output).slice(1) : output.split('\n');
  if (!all.length) return lines;
  const shown = all.slice(0, record.previewLines ?? PREVIEW_LINES);
  shown.forEach((line, i) => {
    const prefix = `${indent}  ${i === 0 ? '⎿ ' : '  '}`;
    lines.push(style.gray(prefix) + (failed ? style.red : style.dim)(truncate(line, width - visibleWidth(prefix))));
  });
  if (all.length > shown.length) lines.push(style.gray(`${indent}    … +${all.length - shown.length} lines (ctrl+o to expand)`));
  return lines;
}

/** Everything about a call: its input and its whole output (Ctrl+O, /details). */
export function toolDetails(record: ToolRecord, style: Style, width: number, maxLines = 2000): string[] {
  const lines = [style.bold(`${record.call.name} ${sanitize(record.summary)}`.trim()) + style.gray(`  [${record.call.id}]`)];
  lines.push(style.gray('input:'));
  for (const line of sanitize(JSON.stringify(record.call.input, null, 2)).split('\n')) lines.push(...breakLine('  ' + line, width, '  '));
  if (record.denied) lines.push(style.red(`denied: ${record.denied}`));
  const output = sanitize(resultText(record.result)).replace(/\n+$/, '');
  lines.push(style.gray(`output${record.result?.isError ? ' (error)' : ''}${record.durationMs !== undefined ? `, ${formatDuration(record.durationMs)}` : ''}:`));
  const outLines = output ? output.split('\n') : ['(empty)'];
  for (const line of outLines.slice(0, maxLines)) lines.push(...breakLine('  ' + line, width, '  '));
  if (outLines.length > maxLines) lines.push(style.gray(`  … ${outLines.length - maxLines} more lines not shown`));
  return lines;
}
