import { addUsage, emptyUsage, type OriginEvent, type ToolCategory, type Usage } from '../../core/index.js';
import { MarkdownStream } from './render/markdown.js';
import { callSummary, toolDetails, toolLines, type ToolRecord } from './render/tool-line.js';
import { SHELL_CALL_PREFIX } from './shell/note.js';
import { SubAgents } from './sub-agents.js';
import type { Style } from './terminal/style.js';
import { breakLine, sanitize, truncate, wrapLine } from './terminal/width.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const KEEP_RECORDS = 100;
/** Output lines a `!command` shows before folding (Ctrl+O shows all). */
const SHELL_PREVIEW_LINES = 40;

/** Where the transcript writes finished lines and asks for a redraw. */
export interface TranscriptOutput {
  commit(lines: string[]): void;
  schedule(): void;
  readonly width: number;
}

/** Formats a token count the short way: 950, 1.2k, 3.4M. */
export function shortCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * Turns the run's events into what the user reads: Markdown committed line by line as it
 * streams, thinking folded to one line (or shown dimmed), one tidy line per tool call with a
 * folded preview, notices; and, for the live area, the unfinished line, running tools and the
 * spinner with elapsed time and tokens.
 */
export class Transcript {
  private markdown: MarkdownStream;
  private thinking: { text: string; started: number } | undefined;
  private lastThinking = '';
  private running = new Map<string, ToolRecord & { started: number }>();
  private denied = new Map<string, string>();
  private records: ToolRecord[] = [];
  private readonly subAgents: SubAgents;
  private model = '';
  private turnChars = 0;
  private streamedChars = 0;
  private reportedOutput = 0;
  private composing: string | undefined;
  /** Usage per model for this process (`/cost`). */
  readonly usageByModel = new Map<string, Usage>();
  busySince: number | undefined;
  showThinking: boolean;
  /** Set while the run waits on the user (an approval); replaces the spinner's label. */
  waitingFor: string | undefined;
  /** What was committed last, to put a blank line between tool lines and the text after them. */
  private lastCommitted: 'text' | 'tool' | 'other' = 'other';

  constructor(
    private readonly style: Style,
    private readonly out: TranscriptOutput,
    private readonly categoryOf: (tool: string) => ToolCategory | undefined,
    options: { showThinking?: boolean } = {},
  ) {
    this.markdown = new MarkdownStream(style, () => out.width);
    this.subAgents = new SubAgents(style, categoryOf);
    this.showThinking = options.showThinking ?? false;
  }

  /** The user's prompt as it joins the transcript. */
  prompt(text: string, tag?: string): void {
    const { style } = this;
    const lines = sanitize(text).split('\n');
    const out = [''];
    lines.forEach((line, i) => out.push(...wrapLine((i === 0 ? style.cyan('› ') : '  ') + line, this.out.width, '  ')));
    if (tag) out[out.length - 1] += style.gray(`  ${tag}`);
    this.out.commit(out.map((l) => (l ? style.bold(l) : l)));
  }

  /** A run starts: reset the spinner's clock and counts. */
  begin(): void {
    this.busySince = Date.now();
    this.streamedChars = 0;
    this.reportedOutput = 0;
  }

  /** Work outside the agent's loop (a `!command`) ended: no `done` event stops the spinner. */
  end(): void {
    this.flushText();
    this.running.clear();
    this.busySince = undefined;
  }

  /** Prints a line outside the event flow (slash command output, approval records). */
  note(lines: string[]): void {
    this.flushText();
    this.out.commit(lines);
    this.lastCommitted = 'other';
  }

  handle(event: OriginEvent): void {
    if (event.agentId) {
      this.subAgent({ ...event, agentId: event.agentId });
      return this.out.schedule();
    }
    switch (event.type) {
      case 'turn_start':
        this.turnChars = 0;
        break;
      case 'model':
        this.model_(event.event);
        break;
      case 'tool_start': {
        this.flushText();
        const { call } = event;
        this.running.set(call.id, { call, summary: callSummary(call.input, event.summary), category: this.categoryOf(call.name), started: Date.now() });
        break;
      }
      case 'tool_end':
        this.toolEnd(event);
        break;
      case 'permission':
        if (event.decision.behavior === 'deny' && event.request.callId) {
          this.denied.set(event.request.callId, event.decision.reason);
          this.flushText();
          const record: ToolRecord = {
            call: { type: 'tool_call', id: event.request.callId, name: event.request.tool, input: event.request.input },
            summary: callSummary(event.request.input, event.request.command),
            denied: event.decision.reason,
            category: event.request.category,
          };
          this.remember(record);
          this.commitTool(record);
        }
        break;
      case 'notice':
        this.flushText();
        this.notice(event.level, event.message, event.code);
        break;
      case 'done':
        this.flushText();
        this.running.clear();
        this.denied.clear();
        this.subAgents.clear();
        this.busySince = undefined;
        break;
      case 'turn_end':
        break;
    }
    this.out.schedule();
  }

  private model_(event: Extract<OriginEvent, { type: 'model' }>['event']): void {
    switch (event.type) {
      case 'message_start':
        this.model = event.model;
        break;
      case 'text_delta':
        this.endThinking();
        this.streamedChars += event.text.length;
        this.turnChars += event.text.length;
        if (this.markdown.idle && this.lastCommitted === 'tool') this.out.commit(['']);
        this.lastCommitted = 'text';
        this.out.commit(this.markdown.push(event.text));
        break;
      case 'thinking_delta':
        this.thinking ??= { text: '', started: Date.now() };
        this.thinking.text += event.text;
        this.streamedChars += event.text.length;
        break;
      case 'tool_call_start':
        this.flushText();
        this.composing = event.name;
        break;
      case 'tool_call_delta':
        this.streamedChars += event.partialJson.length;
        break;
      case 'tool_call_end':
        this.composing = undefined;
        break;
      case 'usage':
        this.reportedOutput = Math.max(this.reportedOutput, event.usage.outputTokens);
        break;
      case 'retry': {
        this.flushText();
        const again = `retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt})`;
        if (event.discard) this.discardReply(event.reason, again);
        else this.notice('warn', `the model request failed (${event.reason}); ${again}`);
        break;
      }
      case 'stop': {
        this.flushText();
        this.composing = undefined;
        this.countUsage(this.model || event.message.meta?.model || 'model', event.usage);
        break;
      }
    }
  }

  /**
   * The reply broke off and the provider asks again: what it streamed stays in the scrollback (it
   * cannot be taken back), so it is marked as discarded and the retried reply streams after it.
   */
  private discardReply(reason: string, again: string): void {
    const shown = this.lastCommitted === 'text' ? 'the partial reply above is discarded' : 'its partial reply is discarded';
    this.composing = undefined;
    this.turnChars = 0;
    this.lastCommitted = 'other';
    this.notice('warn', `the reply broke off (${reason}): ${shown}; ${again}`);
  }

  private countUsage(model: string, usage: Usage): void {
    this.usageByModel.set(model, addUsage(this.usageByModel.get(model) ?? emptyUsage(), usage));
  }

  private toolEnd(event: Extract<OriginEvent, { type: 'tool_end' }>): void {
    const running = this.running.get(event.call.id);
    this.running.delete(event.call.id);
    if (this.denied.has(event.call.id) && event.result.isError) return; // already shown as denied
    this.flushText();
    const record: ToolRecord = {
      call: event.call,
      summary: running?.summary ?? callSummary(event.call.input, undefined),
      result: event.result,
      metadata: event.metadata,
      durationMs: event.durationMs,
      category: running?.category ?? this.categoryOf(event.call.name),
      ...(event.call.id.startsWith(SHELL_CALL_PREFIX) ? { previewLines: SHELL_PREVIEW_LINES } : {}),
    };
    if (this.subAgents.started(event.call.id)) record.note = this.subAgents.note(event.call.id);
    this.remember(record);
    this.commitTool(record);
  }

  /** A sub-agent's event: its usage counts toward /cost; its calls nest under the call that started it. */
  private subAgent(event: OriginEvent & { agentId: string }): void {
    if (event.type === 'model' && event.event.type === 'stop') this.countUsage(event.event.message.meta?.model || this.model || 'model', event.event.usage);
    const { parentCallId } = event;
    if (parentCallId) return this.subAgents.handle({ ...event, parentCallId });
    // A sub-agent no call started (an embedder's): its calls are shown as they finish, indented.
    if (event.type !== 'tool_end') return;
    this.flushText();
    const record: ToolRecord = {
      call: event.call,
      summary: callSummary(event.call.input, undefined),
      result: event.result,
      metadata: event.metadata,
      durationMs: event.durationMs,
      category: this.categoryOf(event.call.name),
      depth: 1,
    };
    this.remember(record);
    this.commitTool(record);
  }

  private commitTool(record: ToolRecord): void {
    const nested = this.subAgents.started(record.call.id) ? this.subAgents.block(record.call.id, this.out.width) : [];
    this.out.commit([...toolLines(record, this.style, this.out.width), ...nested]);
    this.lastCommitted = 'tool';
  }

  private remember(record: ToolRecord): void {
    this.records.push(record);
    if (this.records.length > KEEP_RECORDS) this.records.shift();
  }

  private notice(level: 'info' | 'warn' | 'error', message: string, code?: string): void {
    const { style } = this;
    const text = sanitize(message) + (code ? ` [${code}]` : '');
    const mark = level === 'error' ? style.red('✗ ') : level === 'warn' ? style.yellow('⚠ ') : style.gray('ℹ ');
    const paint = level === 'error' ? style.red : level === 'warn' ? style.yellow : style.gray;
    this.out.commit(wrapLine(mark + paint(text), this.out.width, '  '));
  }

  /** Ends any streamed text and thinking, committing what is left. */
  flushText(): void {
    this.endThinking();
    if (!this.markdown.idle) this.out.commit(this.markdown.end());
  }

  private endThinking(): void {
    const thinking = this.thinking;
    if (!thinking) return;
    this.thinking = undefined;
    this.lastThinking = thinking.text.trim();
    if (!this.lastThinking) return;
    const seconds = Math.max(1, Math.round((Date.now() - thinking.started) / 1000));
    if (this.showThinking) this.out.commit(this.thinkingLines(this.lastThinking, seconds));
    else this.out.commit([this.style.gray(this.style.italic(`✻ Thought for ${seconds}s`)) + this.style.gray(' · ctrl+t to show thinking')]);
  }

  private thinkingLines(text: string, seconds?: number): string[] {
    const { style } = this;
    const lines = [style.gray(style.italic(`✻ Thinking${seconds ? ` (${seconds}s)` : ''}`))];
    for (const line of sanitize(text).split('\n')) lines.push(...wrapLine(style.dim(style.italic(`  ${line}`)), this.out.width, '  '));
    return lines;
  }

  /** Ctrl+T: show thinking in full from now on (and the last block now), or fold it again. */
  toggleThinking(): void {
    this.showThinking = !this.showThinking;
    if (this.showThinking && this.lastThinking) this.out.commit(this.thinkingLines(this.lastThinking));
    else this.out.commit([this.style.gray(this.showThinking ? 'Thinking will be shown.' : 'Thinking will be folded.')]);
  }

  /** Ctrl+O and `/details [n]`: everything about the n-th latest tool call. */
  details(n = 1): string[] {
    const record = this.records[this.records.length - n];
    if (!record) return [this.style.gray(this.records.length ? `there are only ${this.records.length} tool calls so far` : 'no tool calls yet')];
    return toolDetails(record, this.style, this.out.width);
  }

  /** The live lines: the unfinished Markdown line, thinking in progress, running tools, and the spinner. */
  live(now = Date.now()): string[] {
    const { style } = this;
    const width = this.out.width;
    const lines = this.markdown.partial();
    if (this.thinking) {
      const last = sanitize(this.thinking.text).split('\n').filter((l) => l.trim()).pop() ?? '';
      lines.push(style.gray(style.italic(truncate(`✻ ${last}`, width))));
    }
    const frame = FRAMES[Math.floor(now / 80) % FRAMES.length]!;
    for (const tool of this.running.values()) {
      const secs = Math.floor((now - tool.started) / 1000);
      lines.push(truncate(`${style.yellow(frame)} ${style.bold(tool.call.name)} ${sanitize(tool.summary).split('\n')[0]}`, width - 6) + style.gray(secs ? ` ${secs}s` : ''));
      lines.push(...this.subAgents.live(tool.call.id, width));
    }
    if (this.busySince !== undefined) {
      const elapsed = Math.floor((now - this.busySince) / 1000);
      const tokens = Math.max(this.reportedOutput, Math.round(this.streamedChars / 4));
      const label = this.waitingFor
      ? this.waitingFor
      : this.thinking ? 'Thinking' : this.composing ? `Preparing ${this.composing}` : this.running.size ? 'Running tools' : this.turnChars ? 'Writing' : 'Waiting for the model';
      const info = style.gray(` (${elapsed}s · ↓ ${shortCount(tokens)} tokens${this.waitingFor ? '' : ' · esc to interrupt'})`);
      lines.push(style.cyan(frame) + ' ' + style.cyan(`${label}…`) + info);
    }
    return lines.flatMap((l) => breakLine(l, width));
  }
}
