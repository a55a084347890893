import type { Message, ToolCategory, ToolResultPart, UserMessage } from '../../../core/index.js';
import type { Style } from '../terminal/style.js';
import { sanitize, truncate, wrapLine } from '../terminal/width.js';
import { MarkdownStream } from './markdown.js';
import { callSummary, toolLines } from './tool-line.js';
import { SHELL_NOTE_TAG, shellNoteCommand } from '../shell/note.js';

/** How a resumed conversation is shown: the last few exchanges in full, the rest folded into a count. */
export interface ResumeView {
  /** Exchanges (a prompt and everything up to the next) shown. */
  exchanges?: number;
  /** Lines of one prompt or reply before it is cut. */
  maxLines?: number;
}

const typed = (m: Message): boolean => m.role === 'user' && (!m.meta?.origin || m.meta.origin === 'user' || m.meta.tag === SHELL_NOTE_TAG);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the user typed: the first text part (attachments and notes added by plugins follow it). */
function promptText(message: UserMessage): string {
  const first = message.content.find((p) => p.type === 'text');
  return first?.type === 'text' ? first.text : '[image]';
}

function shellCommandLine(message: UserMessage): string | undefined {
  const command = shellNoteCommand(message);
  return command === undefined ? undefined : `!${command}`;
}

function capped(lines: string[], max: number, style: Style): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), style.gray(`  … ${plural(lines.length - max, 'more line')}`)];
}

/**
 * The transcript of a resumed session as it was shown when it ran: prompts, replies (Markdown),
 * one line per tool call with its outcome; older exchanges are folded into "… N earlier messages".
 */
export function resumedLines(messages: readonly Message[], style: Style, width: number, categoryOf: (tool: string) => ToolCategory | undefined, view: ResumeView = {}): string[] {
  const starts = messages.flatMap((m, i) => (typed(m) ? [i] : []));
  const first = starts.length > (view.exchanges ?? 3) ? starts[starts.length - (view.exchanges ?? 3)]! : 0;
  const maxLines = view.maxLines ?? 12;
  const results = new Map<string, ToolResultPart>();
  for (const m of messages) if (m.role === 'tool') for (const r of m.content) results.set(r.toolCallId, r);
  const out: string[] = [];
  if (first > 0) out.push(style.gray(`… ${plural(first, 'earlier message')} (assistant sessions show prints the whole session)`));
  for (const message of messages.slice(first)) {
    if (message.role === 'tool') continue;
    if (message.role === 'user') {
      if (!typed(message)) {
        if (message.meta?.origin === 'steering') out.push(...wrapLine(style.bold(`${style.cyan('› ')}${sanitize(promptText(message))}`) + style.gray('  (steering)'), width, '  '));
        else if (message.meta?.origin === 'summary') out.push(style.gray('(the conversation before this point was summarized)'));
        continue;
      }
      const lines = sanitize(shellCommandLine(message) ?? promptText(message)).split('\n');
      out.push('', ...capped(lines.flatMap((line, i) => wrapLine((i === 0 ? style.cyan('› ') : '  ') + line, width, '  ')), maxLines, style).map((l) => style.bold(l)));
      continue;
    }
    const markdown = new MarkdownStream(style, () => width);
    for (const part of message.content) {
      if (part.type === 'text' && part.text.trim()) out.push(...capped([...markdown.push(part.text), ...markdown.end()], maxLines, style));
      else if (part.type === 'tool_call') {
        const result = results.get(part.id);
        const record = { call: part, summary: callSummary(part.input, undefined), result, metadata: result?.metadata, category: categoryOf(part.name) };
        out.push(...toolLines(record, style, width).slice(0, 1).map((l) => truncate(l, width)));
      }
    }
  }
  return out;
}
