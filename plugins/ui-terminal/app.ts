import { join } from 'node:path';
import {
  userDirs,
  type ApprovalAnswer,
  type ApprovalRequest,
  type Kernel,
  type OriginEvent,
  type PermissionMode,
  type SlashCommandContext,
} from '../../core/index.js';
import { createRunner, openSession, type AgentLoopResult, type AgentRunner } from '../../core/kits/agent/index.js';
import { KeyBindings, type KeyHost } from './app-keys.js';
import { ApprovalController } from './approval/controller.js';
import { runBuiltin } from './commands/builtin.js';
import type { UiHost } from './commands/host.js';
import { runSlash, uiServices } from './commands/run-slash.js';
import { TextBuffer } from './editor/buffer.js';
import type { ChoicePrompt } from './editor/choice.js';
import { completionFiles } from './editor/file-indexes.js';
import { PromptHistory } from './editor/history.js';
import { CompletionMenu } from './editor/menu.js';
import { renderEditor } from './editor/view.js';
import type { MemoryTarget } from './memory-note.js';
import { isModePrompt, memoryNoteMode, shellMode, type PromptModeHost } from './prompt-modes.js';
import { resumedLines } from './render/resume.js';
import { StatusBar } from './status/bar.js';
import type { Key } from './terminal/keys.js';
import { Screen, type LiveView } from './terminal/screen.js';
import { TerminalTakeover } from './terminal/takeover.js';
import { colorEnabled, createStyle, type Style } from './terminal/style.js';
import { sanitize, truncate, wrapLine } from './terminal/width.js';
import { Transcript } from './transcript.js';
import type { AppContext } from './app-context.js';

export type { AppContext, UiOptions } from './app-context.js';

/**
 * The interactive session: the transcript above, the input with history and completion at the
 * bottom, approvals in place of the input when the agent asks, and slash commands.
 */
export class TerminalApp implements UiHost, KeyHost {
  readonly kernel: Kernel;
  readonly style: Style;
  runner: AgentRunner;
  readonly buffer = new TextBuffer();
  readonly history: PromptHistory;
  readonly menu: CompletionMenu;
  readonly startMode: PermissionMode;
  private readonly screen: Screen;
  private readonly transcript: Transcript;
  private readonly approvals: ApprovalController;
  private readonly terminal: TerminalTakeover;
  private readonly bindings = new KeyBindings(this);
  private readonly status: StatusBar;
  /** Steering messages typed while the agent works, until the loop picks them up. */
  private queued: string[] = [];
  private hint: { text: string; until: number } | undefined;
  private modelOverride: string | undefined;
  private running: Promise<void> | undefined;
  /** Stops what runs: the agent's prompt, or a `!command`. */
  private stopRunning: (() => void) | undefined;
  /** A question in place of the input (where a `#note` goes). */
  private choice: ChoicePrompt<MemoryTarget> | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private finish: ((code: number) => void) | undefined;
  private exiting = false;

  constructor(private readonly context: AppContext) {
    const { kernel, session, output, options } = context;
    this.kernel = kernel;
    this.runner = session.runner;
    this.startMode = session.runner.session.mode;
    this.style = createStyle(colorEnabled(output, context.env));
    this.screen = new Screen(output, () => this.view());
    this.transcript = new Transcript(this.style, this.screen, (tool) => kernel.tools.get(tool)?.risk.category, { showThinking: options.showThinking });
    this.approvals = new ApprovalController(this.style, () => this.width, (lines) => this.screen.commit(lines), () => this.screen.schedule());
    this.history = new PromptHistory(join(userDirs(context.env).data, 'history.jsonl'), kernel.projectRoot, options.historySize);
    this.menu = new CompletionMenu(() => kernel.commands.listSlash(), completionFiles(kernel), () => {
      this.menu.update(this.buffer);
      this.screen.schedule();
    });
    this.status = new StatusBar(kernel, options.statusLine, () => this.screen.schedule());
    this.terminal = new TerminalTakeover(context.input, output, {
      keys: (keys) => this.keys(keys),
      resize: () => this.screen.resized(),
      terminate: () => this.exit(130),
      stderrLine: (line) => this.screen.commit([this.style.gray(sanitize(line))]),
    });
  }

  get width(): number {
    return this.screen.width;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get usageByModel() {
    return this.transcript.usageByModel;
  }

  get model(): string {
    return this.modelOverride ?? this.kernel.config.provider?.model ?? this.runner.session.info.model ?? 'default model';
  }

  get mode(): PermissionMode {
    return this.runner.session.mode;
  }

  /** Takes over the terminal until the user leaves; resolves with the exit code. */
  start(): Promise<number> {
    this.terminal.start();
    const { style } = this;
    this.screen.commit([style.bold('assistant') + style.gray(' · /help for commands · ctrl+j for a new line · ctrl+c twice to exit'), '']);
    this.showResumed();
    this.screen.draw();
    void this.history.load().catch(() => undefined);
    const done = new Promise<number>((resolve) => (this.finish = resolve));
    if (this.context.session.initialPrompt) this.submit(this.context.session.initialPrompt);
    return done;
  }

  /** Every event of the run, from the plugin's `event` tap. */
  onEvent(event: OriginEvent): void {
    if (event.type === 'turn_start' && !event.agentId && this.queued.length > this.runner.queued) {
      // The loop took the steering messages into this turn: show them as sent.
      for (const text of this.queued.splice(0, this.queued.length - this.runner.queued)) this.transcript.prompt(text, '(steering)');
    }
    this.transcript.handle(event);
  }

  /** Asks about a batch of pending calls (the plugin's `approval` tap). */
  approve(items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
    this.transcript.flushText();
    return this.approvals.approve(items);
  }

  /** A bug in key handling is shown and the UI stays usable: a crash never leaves the terminal in raw mode. */
  private keys(keys: Key[]): void {
    for (const key of keys) {
      try {
        this.onKey(key);
      } catch (error) {
        this.transcript.note([this.style.red(`✗ internal error while handling a key: ${sanitize(String((error as Error)?.message ?? error))}`)]);
      }
    }
    this.screen.schedule();
  }

  private onKey(key: Key): void {
    if (this.exiting) return;
    if (this.approvals.active) {
      if (this.approvals.handle(key) === 'interrupted') this.interrupt();
      return;
    }
    if (this.choice) {
      if (this.choice.handle(key)) this.choice = undefined;
      return;
    }
    this.bindings.handle(key);
  }

  rewind(): boolean {
    if (!this.kernel.commands.slash('rewind')) return false;
    void runSlash(this.slashHost(), 'rewind', '');
    return true;
  }

  flash(text: string, ms: number): void {
    this.hint = { text, until: Date.now() + ms };
    setTimeout(() => this.screen.schedule(), ms + 10).unref();
  }

  showDetails(): void {
    this.transcript.note(['', ...this.transcript.details(1)]);
  }

  toggleThinking(): void {
    this.transcript.toggleThinking();
  }

  setMode(mode: PermissionMode): string | undefined {
    if (mode === 'bypass' && this.startMode !== 'bypass') return 'bypass mode can only be chosen at start (--permission-mode bypass)';
    this.runner.session.mode = mode;
    this.screen.schedule();
    return undefined;
  }

  setModel(model: string): void {
    this.modelOverride = model;
  }

  /** Enter: a slash command, `!command`, `#note`, a steering message while the agent works, or a new prompt. */
  submit(raw: string): void {
    const text = raw.replace(/\s+$/, '');
    if (!text.trim()) return;
    this.buffer.clear();
    this.menu.update(this.buffer);
    void this.history.add(text).catch(() => undefined);
    const slash = /^\/([A-Za-z][\w:-]*)(?:\s+([\s\S]*))?$/.exec(text);
    if (slash) void runSlash(this.slashHost(), slash[1]!, slash[2] ?? '');
    else if (!isModePrompt(text)) this.submitPrompt(text);
    else if (this.busy) {
      // Not a steering message: the model would get "!rm …" as text. It waits in the input instead.
      this.buffer.set(text);
      this.flash(`${text[0]} works when the agent is idle: wait, or press esc to interrupt it`, 3000);
    } else if (text.startsWith('!')) shellMode(this.modeHost(), text.slice(1).trim());
    else void memoryNoteMode(this.modeHost(), text.slice(1).trim());
  }

  private startRun(text: string, tag?: string): void {
    this.transcript.prompt(text, tag);
    const options = this.modelOverride ? { model: this.modelOverride } : {};
    let next: string | undefined;
    this.track(
      this.runner.run(text, options).then((result) => {
        next = this.afterRun(result);
      }),
      () => this.runner.abort(),
      () => next,
    );
  }

  /** Marks the app busy while `work` runs; afterwards starts the prompt `next` returns, if any. */
  private track(work: Promise<void>, stop: () => void, next: () => string | undefined): void {
    this.transcript.begin();
    this.stopRunning = stop;
    this.ticker = setInterval(() => this.screen.schedule(), 100);
    this.running = work
      .catch((error: unknown) => this.transcript.note([this.style.red(`✗ ${sanitize(String((error as Error)?.message ?? error))}`)]))
      .finally(() => {
        this.running = undefined;
        this.stopRunning = undefined;
        this.transcript.end();
        if (this.ticker) clearInterval(this.ticker);
        this.screen.schedule();
        // Only now is the app idle: a follow-up started earlier would find it busy and be lost.
        const prompt = next();
        this.queued = [];
        if (prompt && !this.exiting && !this.busy) this.startRun(prompt, '(queued)');
      });
  }

  private modeHost(): PromptModeHost {
    return {
      kernel: this.kernel,
      runner: this.runner,
      style: this.style,
      env: this.context.env,
      modelOverride: this.modelOverride,
      prompt: (text) => this.transcript.prompt(text),
      note: (lines) => {
        this.transcript.note(lines);
        this.screen.schedule();
      },
      track: (work, stop, next) => this.track(work, stop, next),
      ask: (choice) => {
        this.choice = choice;
        this.screen.schedule();
      },
    };
  }

  /** Settles messages still queued when a run ends; returns the next prompt they make, if any. */
  private afterRun(result: AgentLoopResult): string | undefined {
    const leftover = this.runner.takeQueued();
    this.queued = [];
    if (!leftover.length) return undefined;
    // Messages queued for a stopped turn come back to the input; after a finished one they are the next prompt.
    if (result.reason !== 'aborted') return leftover.join('\n\n');
    this.buffer.set([...leftover, this.buffer.text].filter(Boolean).join('\n'));
    return undefined;
  }

  /** Stops the running prompt: the stream and tools are aborted, partial output is kept. */
  interrupt(): void {
    this.approvals.interrupt();
    this.stopRunning?.();
  }

  private slashHost() {
    return {
      kernel: this.kernel,
      style: this.style,
      busy: this.busy,
      sessionId: this.runner.session.info.id,
      print: (text: string) => this.transcript.note(this.lines(text)),
      note: (lines: string[]) => {
        this.transcript.note(lines);
        this.screen.schedule();
      },
      services: () => uiServices(this),
    };
  }

  private lines(text: string): string[] {
    return text.split('\n').flatMap((line) => wrapLine(line, this.width, /^\s*/.exec(line)![0]));
  }

  /** Sends text as the user's next prompt (a command that expands to a prompt, e.g. an MCP server's); shown as typed, queued when the agent is busy. */
  submitPrompt(text: string): void {
    if (!text.trim()) return;
    if (this.busy) {
      this.runner.steer(text);
      this.queued.push(text);
    } else this.startRun(text);
    this.screen.schedule();
  }

  /** Runs a built-in command (they are registered through the `commands` hook like anyone's). */
  runBuiltin(name: string, args: string, context: SlashCommandContext) {
    return runBuiltin(name, this, args, context);
  }

  clearScreen(): void {
    this.screen.clear();
  }

  async newConversation(): Promise<string> {
    const old = this.runner.session;
    const session = await openSession(this.kernel, { projectRoot: this.kernel.projectRoot, mode: old.mode, provider: old.info.provider, model: old.info.model, cleared: true });
    this.switchRunner(createRunner(this.kernel, session));
    return session.info.id;
  }

  /** Drives another session from now on (a plugin's /resume). */
  switchRunner(runner: AgentRunner): void {
    if (this.busy) throw new Error('the agent is working; interrupt it first');
    this.runner = runner;
    this.kernel.session = runner.session;
    this.transcript.usageByModel.clear();
    this.showResumed();
    this.screen.schedule();
  }

  /** A session that already has a conversation (--continue, --resume, /resume) shows its last exchanges. */
  private showResumed(): void {
    void this.status.sessionChanged(this.runner).then(() => this.screen.schedule());
    if (this.runner.session.messages.length) this.showConversation('─ resumed: the conversation continues from here ─');
  }

  /** After a conversation rewind (`/rewind`, Esc Esc): the screen shows the rewound conversation and the prompt is back in the input. */
  showRewound(prompt: string): void {
    this.screen.clear();
    this.showConversation('─ rewound: the conversation continues from here; edit the prompt and press Enter ─');
    this.buffer.set(prompt);
    this.screen.schedule();
  }

  private showConversation(footer: string): void {
    const categoryOf = (tool: string) => this.kernel.tools.get(tool)?.risk.category;
    this.transcript.note([...resumedLines(this.runner.session.messages, this.style, this.width, categoryOf), '', this.style.gray(footer)]);
  }

  details(n: number): string[] {
    return this.transcript.details(n);
  }

  /** Leaves: a running prompt is stopped and awaited, so the session ends consistent. */
  exit(code = 0): void {
    if (this.exiting) return;
    this.exiting = true;
    this.approvals.close();
    this.choice = undefined;
    this.stopRunning?.();
    void (this.running ?? Promise.resolve()).finally(() => {
      this.terminal.release();
      if (this.ticker) clearInterval(this.ticker);
      this.status.close();
      const { id } = this.runner.session.info;
      this.screen.close([this.style.gray(this.runner.session.messages.length ? `resume with: assistant --resume ${id}` : `session ${id} (nothing to resume)`)]);
      this.terminal.restore();
      this.finish?.(code);
    });
  }

  /** The live area, top to bottom: streaming output and spinner, queued messages, then the input (or the approval) and the status line. */
  private view(): LiveView {
    const { style } = this;
    const width = this.width;
    this.transcript.waitingFor = this.approvals.active ? 'Waiting for your approval' : undefined;
    const lines = this.transcript.live();
    for (const text of this.queued) lines.push(style.gray(truncate(`⧗ queued: ${sanitize(text).replace(/\n/g, ' ⏎ ')}`, width)));
    const approval = this.approvals.view() ?? this.choice?.view(style, width);
    if (approval) {
      const offset = lines.length;
      lines.push(...approval.lines);
      return { lines, cursor: approval.cursor && { row: offset + approval.cursor.row, col: approval.cursor.col } };
    }
    lines.push(style.gray('─'.repeat(width)));
    const placeholder = this.busy ? 'Type to steer: Enter queues a message for the agent · esc interrupts' : 'Ask anything · / for commands · @ to attach a file';
    const editor = renderEditor(this.buffer, style, width, Math.max(3, this.screen.height - lines.length - 8), placeholder);
    const offset = lines.length;
    lines.push(...editor.lines, ...this.menu.view(style, width));
    const hint = this.hint && this.hint.until > Date.now() ? this.hint.text : undefined;
    lines.push(...this.status.lines(this.runner, this.model, hint, style, width));
    return { lines, cursor: { row: offset + editor.cursor.row, col: editor.cursor.col } };
  }
}
