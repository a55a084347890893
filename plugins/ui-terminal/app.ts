import { join } from 'node:path';
import {
  userDirs,
  type ApprovalAnswer,
  type ApprovalRequest,
  type InteractiveSession,
  type Kernel,
  type OriginEvent,
  type PermissionMode,
  type SlashCommandContext,
} from '../../core/index.js';
import { createRunner, openSession, type AgentLoopResult, type AgentRunner } from '../../core/kits/agent/index.js';
import { ApprovalController } from './approval/controller.js';
import { runBuiltin } from './commands/builtin.js';
import { BUILTIN_COMMANDS, type UiHost } from './commands/host.js';
import { TextBuffer } from './editor/buffer.js';
import { FileIndex } from './editor/complete.js';
import { PromptHistory } from './editor/history.js';
import { applyEditingKey } from './editor/keymap.js';
import { CompletionMenu } from './editor/menu.js';
import { renderEditor } from './editor/view.js';
import { modeCycle, statusLine } from './render/status.js';
import { KeyDecoder, type Key } from './terminal/keys.js';
import { Screen, type LiveView } from './terminal/screen.js';
import { captureStderr } from './terminal/stderr-capture.js';
import { colorEnabled, createStyle, type Style } from './terminal/style.js';
import { sanitize, truncate, wrapLine } from './terminal/width.js';
import { Transcript } from './transcript.js';

/** The plugin's options that shape the UI. */
export interface UiOptions {
  showThinking?: boolean;
  historySize?: number;
}

/** What the app runs on: the kernel, the session's runner, and the terminal's streams. */
export interface AppContext {
  kernel: Kernel;
  session: InteractiveSession;
  input: NodeJS.ReadStream;
  output: NodeJS.WriteStream;
  options: UiOptions;
  env?: NodeJS.ProcessEnv;
}

const DOUBLE_PRESS_MS = 2000;
const ESC_WAIT_MS = 30;
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/**
 * The interactive session: the transcript above, the input with history and completion at the
 * bottom, approvals in place of the input when the agent asks, and slash commands.
 */
export class TerminalApp implements UiHost {
  readonly kernel: Kernel;
  readonly style: Style;
  runner: AgentRunner;
  private readonly screen: Screen;
  private readonly transcript: Transcript;
  private readonly approvals: ApprovalController;
  private readonly buffer = new TextBuffer();
  private readonly decoder = new KeyDecoder();
  private readonly history: PromptHistory;
  private readonly menu: CompletionMenu;
  private readonly startMode: PermissionMode;
  /** Steering messages typed while the agent works, until the loop picks them up. */
  private queued: string[] = [];
  private hint: { text: string; until: number } | undefined;
  private lastPress = { ctrlC: 0, escape: 0 };
  private modelOverride: string | undefined;
  private running: Promise<void> | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private escTimer: NodeJS.Timeout | undefined;
  private finish: ((code: number) => void) | undefined;
  private releaseStderr: () => void = () => {};
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
    this.menu = new CompletionMenu(() => kernel.commands.listSlash(), new FileIndex(kernel.cwd), () => {
      this.menu.update(this.buffer);
      this.screen.schedule();
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

  /** Takes over the terminal until the user leaves; resolves with the exit code. */
  start(): Promise<number> {
    const { input, output } = this.context;
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    input.on('data', this.onData);
    input.resume();
    output.on('resize', this.onResize);
    process.on('SIGTERM', this.onTerminate);
    process.on('SIGHUP', this.onTerminate);
    output.write(BRACKETED_PASTE_ON);
    this.releaseStderr = captureStderr(process.stderr, (line) => this.screen.commit([this.style.gray(sanitize(line))]));
    const { style } = this;
    this.screen.commit([style.bold('assistant') + style.gray(' · /help for commands · ctrl+j for a new line · ctrl+c twice to exit'), '']);
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

  private readonly onData = (chunk: string) => {
    if (this.escTimer) clearTimeout(this.escTimer);
    this.keys(this.decoder.push(chunk));
    if (this.decoder.pending) this.escTimer = setTimeout(() => this.keys(this.decoder.flush()), ESC_WAIT_MS);
  };

  private readonly onResize = () => this.screen.resized();
  private readonly onTerminate = () => this.exit(130);

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
    const b = this.buffer;
    if (key.type === 'key' && this.appKey(key.name)) return;
    if (key.type === 'ctrl' && this.ctrlKey(key.letter)) return;
    if (applyEditingKey(b, key)) {
      this.history.reset();
      this.menu.update(b);
    }
  }

  /** Keys with a meaning beyond editing; false lets the editor have the key. */
  private appKey(name: Extract<Key, { type: 'key' }>['name']): boolean {
    const b = this.buffer;
    switch (name) {
      case 'enter':
        if (this.menu.open && this.menu.kind === 'file') this.menu.accept(b);
        else if (this.menu.open && !this.menu.exact(b)) {
          this.menu.accept(b);
          this.submit(b.text);
        } else if (b.text.endsWith('\\') && b.cursor === b.text.length) {
          b.backspace();
          b.insert('\n');
        } else this.submit(b.text);
        return true;
      case 'tab':
        this.menu.accept(b);
        return true;
      case 'shift-tab': {
        const modes = modeCycle(this.startMode);
        this.setMode(modes[(modes.indexOf(this.runner.session.mode) + 1) % modes.length]!);
        return true;
      }
      case 'escape':
        if (this.menu.open) this.menu.close(b);
        else if (this.busy) this.interrupt();
        else if (!b.empty && this.pressedTwice('escape')) b.clear();
        else if (!b.empty) this.flash('Esc again to clear the input');
        return true;
      case 'up':
        if (this.menu.open) this.menu.move(-1);
        else if (!b.up()) this.recall(this.history.previous(b.text), false);
        return true;
      case 'down':
        if (this.menu.open) this.menu.move(1);
        else if (!b.down()) this.recall(this.history.next(), true);
        return true;
      default:
        return false;
    }
  }

  private ctrlKey(letter: string): boolean {
    const b = this.buffer;
    switch (letter) {
      case 'c':
        if (this.busy) this.interrupt();
        else if (!b.empty) b.clear();
        else if (this.pressedTwice('ctrlC')) this.exit(0);
        else this.flash('Press Ctrl+C again to exit');
        break;
      case 'd':
        if (!b.empty) return false;
        this.exit(0);
        break;
      case 'p':
        this.recall(this.history.previous(b.text), false);
        break;
      case 'n':
        this.recall(this.history.next(), true);
        break;
      case 'l':
        this.screen.clear();
        break;
      case 'o':
        this.transcript.note(['', ...this.transcript.details(1)]);
        break;
      case 't':
        this.transcript.toggleThinking();
        break;
      default:
        return false;
    }
    this.menu.update(b);
    return true;
  }

  /** Records a press; true when the same key was pressed moments ago. */
  private pressedTwice(key: keyof TerminalApp['lastPress']): boolean {
    const twice = Date.now() - this.lastPress[key] < DOUBLE_PRESS_MS;
    this.lastPress[key] = twice ? 0 : Date.now();
    return twice;
  }

  private recall(text: string | undefined, atEnd: boolean): void {
    if (text === undefined) return;
    const firstBreak = text.indexOf('\n');
    this.buffer.set(text, atEnd || firstBreak < 0 ? text.length : firstBreak);
  }

  private flash(text: string): void {
    this.hint = { text, until: Date.now() + DOUBLE_PRESS_MS };
    setTimeout(() => this.screen.schedule(), DOUBLE_PRESS_MS + 10).unref();
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

  /** Enter: a slash command, a steering message while the agent works, or a new prompt. */
  private submit(raw: string): void {
    const text = raw.replace(/\s+$/, '');
    if (!text.trim()) return;
    this.buffer.clear();
    this.menu.update(this.buffer);
    void this.history.add(text).catch(() => undefined);
    const slash = /^\/([A-Za-z][\w:-]*)(?:\s+([\s\S]*))?$/.exec(text);
    if (slash) void this.slash(slash[1]!, slash[2] ?? '');
    else this.submitPrompt(text);
  }

  private startRun(text: string, tag?: string): void {
    this.transcript.prompt(text, tag);
    this.transcript.begin();
    this.ticker = setInterval(() => this.screen.schedule(), 100);
    let next: string | undefined;
    this.running = this.runner
      .run(text, this.modelOverride ? { model: this.modelOverride } : {})
      .then((result) => {
        next = this.afterRun(result);
      })
      .catch((error: unknown) => this.transcript.note([this.style.red(`✗ ${sanitize(String((error as Error)?.message ?? error))}`)]))
      .finally(() => {
        this.running = undefined;
        if (this.ticker) clearInterval(this.ticker);
        this.screen.schedule();
        // Only now is the app idle: a follow-up started earlier would find it busy and be lost.
        if (next && !this.exiting && !this.busy) this.startRun(next, '(queued)');
      });
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
  private interrupt(): void {
    this.approvals.interrupt();
    if (this.busy) this.runner.abort();
  }

  private async slash(name: string, args: string): Promise<void> {
    const { style } = this;
    const command = this.kernel.commands.slash(name);
    this.transcript.note(['', style.bold(style.cyan(`/${name}`)) + (args ? ` ${args}` : '')]);
    const builtin = BUILTIN_COMMANDS.find((c) => c.name === name);
    if (!command) this.transcript.note([style.red(`Unknown command /${name}.`) + style.gray(' /help lists the commands; plugins add more.')]);
    else if (this.busy && !builtin?.whileBusy) this.transcript.note([style.yellow(`/${name} can run when the agent is idle; press esc to interrupt it first.`)]);
    else {
      const context: SlashCommandContext = { print: (text) => this.transcript.note(this.lines(text)), sessionId: this.runner.session.info.id, ui: this.services() };
      try {
        const output = await command.run(args, context);
        if (typeof output === 'string' && output) this.transcript.note(this.lines(output));
      } catch (error) {
        this.transcript.note([style.red(`✗ /${name} failed: ${sanitize(String((error as Error)?.message ?? error))}`)]);
      }
    }
    this.screen.schedule();
  }

  private lines(text: string): string[] {
    return text.split('\n').flatMap((line) => wrapLine(line, this.width, /^\s*/.exec(line)![0]));
  }

  /** The UI services slash commands from other plugins can reach (`context.ui`), documented in docs/usage.md. */
  private services(): Record<string, unknown> {
    return {
      clearScreen: () => this.clearScreen(),
      newConversation: () => this.newConversation(),
      switchRunner: (runner: AgentRunner) => this.switchRunner(runner),
      setMode: (mode: PermissionMode) => this.setMode(mode),
      submit: (text: string) => this.submitPrompt(text),
      runner: this.runner,
      width: this.width,
      color: this.style.enabled,
    };
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
    this.screen.schedule();
  }

  details(n: number): string[] {
    return this.transcript.details(n);
  }

  /** Leaves: a running prompt is stopped and awaited, so the session ends consistent. */
  exit(code = 0): void {
    if (this.exiting) return;
    this.exiting = true;
    this.approvals.close();
    if (this.busy) this.runner.abort();
    void (this.running ?? Promise.resolve()).finally(() => {
      const { input, output } = this.context;
      input.off('data', this.onData);
      output.off('resize', this.onResize);
      process.off('SIGTERM', this.onTerminate);
      process.off('SIGHUP', this.onTerminate);
      if (this.ticker) clearInterval(this.ticker);
      if (this.escTimer) clearTimeout(this.escTimer);
      this.releaseStderr();
      this.screen.close([this.style.gray(`session ${this.runner.session.info.id}`)]);
      output.write(BRACKETED_PASTE_OFF);
      input.setRawMode?.(false);
      input.pause();
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
    const approval = this.approvals.view();
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
    lines.push(statusLine({ cwd: this.kernel.cwd, model: this.model, mode: this.runner.session.mode, hint }, style, width));
    return { lines, cursor: { row: offset + editor.cursor.row, col: editor.cursor.col } };
  }
}
