import { join } from 'node:path';
import {
  createRunner,
  openSession,
  userDirs,
  type AgentLoopResult,
  type AgentRunner,
  type ApprovalAnswer,
  type ApprovalRequest,
  type InteractiveSession,
  type Kernel,
  type OriginEvent,
  type PermissionMode,
  type SlashCommandContext,
} from '../../core/index.js';
import { approvalPreview } from './approval/preview.js';
import { ApprovalPrompt, INTERRUPT_MESSAGE } from './approval/prompt.js';
import { runBuiltin } from './commands/builtin.js';
import { BUILTIN_COMMANDS, type UiHost } from './commands/host.js';
import { TextBuffer } from './editor/buffer.js';
import { FileIndex } from './editor/complete.js';
import { PromptHistory } from './editor/history.js';
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

/** Runs the interactive UI until the user leaves; resolves with the exit code. */
export function runTerminalApp(context: AppContext): { done: Promise<number>; app: TerminalApp } {
  const app = new TerminalApp(context);
  return { done: app.start(), app };
}

/**
 * The interactive session: input with history and completion at the bottom, the transcript
 * above it, approvals in place of the input when the agent asks, and slash commands.
 */
export class TerminalApp implements UiHost {
  readonly kernel: Kernel;
  readonly style: Style;
  runner: AgentRunner;
  private readonly screen: Screen;
  private readonly transcript: Transcript;
  private readonly buffer = new TextBuffer();
  private readonly decoder = new KeyDecoder();
  private readonly history: PromptHistory;
  private readonly menu: CompletionMenu;
  private readonly startMode: PermissionMode;
  private approval: { prompt: ApprovalPrompt; resolve: (answers: ApprovalAnswer[]) => void } | undefined;
  private approvals: Promise<unknown> = Promise.resolve();
  private interrupts = 0;
  /** Steering messages typed while the agent works, until the loop picks them up. */
  private queued: string[] = [];
  private hint: { text: string; until: number } | undefined;
  private lastCtrlC = 0;
  private lastEscape = 0;
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

  /** Asks the user about a batch of pending calls (the plugin's `approval` tap); batches from sub-agents wait their turn. */
  approve(items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
    const interrupts = this.interrupts;
    const asked = this.approvals.then(() =>
      // A batch that was waiting while the user interrupted the turn is not asked any more.
      interrupts !== this.interrupts ? items.map((): ApprovalAnswer => ({ behavior: 'deny', scope: 'once', message: INTERRUPT_MESSAGE })) : this.ask(items),
    );
    this.approvals = asked.catch(() => undefined);
    return asked;
  }

  private async ask(items: ApprovalRequest[]): Promise<ApprovalAnswer[]> {
    if (this.exiting) return items.map(() => ({ behavior: 'deny', scope: 'once', message: 'the user closed assistant' }));
    this.transcript.flushText();
    const previews: string[] = [''];
    for (const [i, item] of items.entries()) previews.push(...(await approvalPreview(item, i, items.length, this.style, this.width)));
    this.screen.commit(previews);
    return new Promise<ApprovalAnswer[]>((resolve) => {
      const prompt = new ApprovalPrompt(items, (item, answer) => this.screen.commit([this.answerLine(item, answer)]));
      this.approval = { prompt, resolve };
      this.transcript.waitingFor = 'Waiting for your approval';
      this.screen.schedule();
    });
  }

  private answerLine(item: ApprovalRequest, answer: ApprovalAnswer): string {
    const { style } = this;
    const what = `${item.request.tool} ${truncate(sanitize(item.request.command ?? String(item.request.input.file_path ?? item.request.input.path ?? '')).split('\n')[0]!, 40)}`.trim();
    if (answer.behavior === 'deny') return style.red(`  ✗ denied ${what}`) + (answer.message ? style.gray(`: ${answer.message}`) : '');
    const scope = answer.scope === 'session' ? ' for this session' : answer.scope === 'project' ? ' always in this project' : ' once';
    return style.green(`  ✓ allowed ${what}${scope}`) + (answer.scope !== 'once' && item.decision.suggestedRule ? style.gray(` (${item.decision.suggestedRule})`) : '');
  }

  private readonly onData = (chunk: string) => {
    if (this.escTimer) clearTimeout(this.escTimer);
    this.keys(this.decoder.push(chunk));
    if (this.decoder.pending) this.escTimer = setTimeout(() => this.keys(this.decoder.flush()), ESC_WAIT_MS);
  };

  /** A bug in key handling is shown and the UI stays usable: the terminal is never left in raw mode by a crash. */
  private keys(keys: Key[]): void {
    for (const key of keys) {
      try {
        this.onKey(key);
      } catch (error) {
        this.transcript.note([this.style.red(`✗ internal error while handling a key: ${sanitize(String((error as Error)?.message ?? error))}`)]);
      }
    }
  }

  private readonly onResize = () => this.screen.resized();
  private readonly onTerminate = () => this.exit(130);

  private onKey(key: Key): void {
    if (this.exiting) return;
    if (this.approval) {
      const state = this.approval.prompt.handle(key);
      if (state !== 'pending') {
        const { prompt, resolve } = this.approval;
        this.approval = undefined;
        this.transcript.waitingFor = undefined;
        resolve(prompt.answers);
        if (state === 'interrupted') this.interrupt();
      }
      this.screen.schedule();
      return;
    }
    this.editorKey(key);
    this.screen.schedule();
  }

  private editorKey(key: Key): void {
    const b = this.buffer;
    if (key.type === 'text' || key.type === 'paste') {
      b.insert(key.text);
      this.history.reset();
      this.menu.update(b);
      return;
    }
    if (key.type === 'ctrl') return this.ctrlKey(key.letter);
    switch (key.name) {
      case 'enter':
        if (this.menu.open && this.menu.kind === 'file') this.menu.accept(b);
        else if (this.menu.open && !this.menu.exact(b)) {
          this.menu.accept(b);
          this.submit(b.text);
        } else if (b.text.endsWith('\\') && b.cursor === b.text.length) {
          b.backspace();
          b.insert('\n');
        } else this.submit(b.text);
        break;
      case 'newline':
        b.insert('\n');
        break;
      case 'tab':
        this.menu.accept(b);
        break;
      case 'shift-tab':
        this.cycleMode();
        break;
      case 'escape':
        if (this.menu.open) this.menu.close(b);
        else if (this.busy) this.interrupt();
        else if (!b.empty) {
          if (Date.now() - this.lastEscape < DOUBLE_PRESS_MS) b.clear();
          else this.flash('Esc again to clear the input');
          this.lastEscape = Date.now();
        }
        return;
      case 'up':
        if (this.menu.open) this.menu.move(-1);
        else if (!b.up()) this.recall(this.history.previous(b.text), false);
        return;
      case 'down':
        if (this.menu.open) this.menu.move(1);
        else if (!b.down()) this.recall(this.history.next(), true);
        return;
      case 'backspace':
        b.backspace();
        break;
      case 'delete':
        b.deleteForward();
        break;
      case 'left':
        b.left();
        break;
      case 'right':
        b.right();
        break;
      case 'home':
        b.home();
        break;
      case 'end':
        b.end();
        break;
      case 'word-left':
        b.wordLeft();
        break;
      case 'word-right':
        b.wordRight();
        break;
      case 'word-backspace':
        b.deleteWordBack();
        break;
      case 'word-delete':
        b.deleteWordForward();
        break;
      default:
        return;
    }
    this.menu.update(b);
  }

  private ctrlKey(letter: string): void {
    const b = this.buffer;
    const edits: Record<string, () => void> = {
      a: () => b.home(),
      e: () => b.end(),
      b: () => b.left(),
      f: () => b.right(),
      k: () => b.killToEnd(),
      u: () => b.killToStart(),
      w: () => b.deleteWordBack(),
      p: () => this.recall(this.history.previous(b.text), false),
      n: () => this.recall(this.history.next(), true),
      l: () => this.screen.clear(),
      o: () => this.screen.commit(['', ...this.transcript.details(1)]),
      t: () => this.transcript.toggleThinking(),
      c: () => this.ctrlC(),
      d: () => (b.empty ? this.exit(0) : b.deleteForward()),
    };
    edits[letter]?.();
    this.menu.update(b);
  }

  private ctrlC(): void {
    if (this.busy) return this.interrupt();
    if (!this.buffer.empty) {
      this.buffer.clear();
      return;
    }
    if (Date.now() - this.lastCtrlC < DOUBLE_PRESS_MS) return this.exit(0);
    this.lastCtrlC = Date.now();
    this.flash('Press Ctrl+C again to exit');
  }

  private recall(text: string | undefined, atEnd: boolean): void {
    if (text === undefined) return;
    this.buffer.set(text, atEnd ? text.length : text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  }

  private flash(text: string): void {
    this.hint = { text, until: Date.now() + DOUBLE_PRESS_MS };
    setTimeout(() => this.screen.schedule(), DOUBLE_PRESS_MS + 10).unref();
  }

  private cycleMode(): void {
    const modes = modeCycle(this.startMode);
    const next = modes[(modes.indexOf(this.runner.session.mode) + 1) % modes.length]!;
    this.setMode(next);
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
    if (slash) {
      void this.slash(slash[1]!, slash[2] ?? '');
      return;
    }
    if (this.busy) {
      this.runner.steer(text);
      this.queued.push(text);
      return;
    }
    this.startRun(text);
  }

  private startRun(text: string, tag?: string): void {
    this.transcript.prompt(text, tag);
    this.transcript.begin();
    this.ticker = setInterval(() => this.screen.schedule(), 100);
    this.running = this.runner
      .run(text, this.modelOverride ? { model: this.modelOverride } : {})
      .then((result) => this.afterRun(result))
      .catch((error: unknown) => this.transcript.note([this.style.red(`✗ ${(error as Error)?.message ?? error}`)]))
      .finally(() => {
        this.running = undefined;
        if (this.ticker) clearInterval(this.ticker);
        this.screen.schedule();
      });
  }

  private afterRun(result: AgentLoopResult): void {
    const leftover = this.runner.takeQueued();
    this.queued = [];
    if (result.reason === 'aborted') {
      // Messages queued for the stopped turn come back to the input, not lost.
      if (leftover.length) this.buffer.set([...leftover, this.buffer.text].filter(Boolean).join('\n'));
      return;
    }
    if (leftover.length && !this.exiting) queueMicrotask(() => !this.busy && this.startRun(leftover.join('\n\n'), '(queued)'));
  }

  /** Stops the running prompt: the stream and tools are aborted, partial output is kept. */
  private interrupt(): void {
    this.interrupts++;
    if (this.approval) {
      const { prompt, resolve } = this.approval;
      this.approval = undefined;
      this.transcript.waitingFor = undefined;
      prompt.interrupt();
      resolve(prompt.answers);
    }
    if (this.busy) this.runner.abort();
  }

  private async slash(name: string, args: string): Promise<void> {
    const { style } = this;
    const command = this.kernel.commands.slash(name);
    this.transcript.note(['', style.bold(style.cyan(`/${name}`)) + (args ? ` ${args}` : '')]);
    if (!command) {
      this.transcript.note([style.red(`Unknown command /${name}.`) + style.gray(' /help lists the commands; plugins add more.')]);
      return;
    }
    const builtin = BUILTIN_COMMANDS.find((c) => c.name === name);
    if (this.busy && !builtin?.whileBusy) {
      this.transcript.note([style.yellow(`/${name} can run when the agent is idle; press esc to interrupt it first.`)]);
      return;
    }
    const context: SlashCommandContext = {
      print: (text) => this.transcript.note(this.lines(text)),
      sessionId: this.runner.session.info.id,
      ui: this.services(),
    };
    try {
      const output = await command.run(args, context);
      if (typeof output === 'string' && output) this.transcript.note(this.lines(output));
    } catch (error) {
      this.transcript.note([style.red(`✗ /${name} failed: ${sanitize(String((error as Error)?.message ?? error))}`)]);
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
      runner: this.runner,
      width: this.width,
      color: this.style.enabled,
    };
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
    const session = await openSession(this.kernel.hooks, {
      projectRoot: this.kernel.projectRoot,
      mode: old.mode,
      provider: old.info.provider,
      model: old.info.model,
    });
    this.kernel.session = session;
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
    this.interrupt();
    const stopped = this.running ?? Promise.resolve();
    void stopped.finally(() => {
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

  /** The live area, top to bottom: streaming output and spinner, queued messages, then the input (or the approval menu) and the status line. */
  private view(): LiveView {
    const { style } = this;
    const width = this.width;
    const lines = this.transcript.live();
    for (const text of this.queued) lines.push(style.gray(truncate(`⧗ queued: ${sanitize(text).replace(/\n/g, ' ⏎ ')}`, width)));
    if (this.approval) {
      const menu = this.approval.prompt.view(style, width);
      const offset = lines.length;
      lines.push(...menu.lines);
      return { lines, cursor: menu.cursor ? { row: offset + menu.cursor.row, col: menu.cursor.col } : undefined };
    }
    lines.push(style.gray('─'.repeat(width)));
    const placeholder = this.busy ? 'Type to steer: Enter queues a message for the agent · esc interrupts' : 'Ask anything · / for commands · @ to attach a file';
    const maxRows = Math.max(3, this.screen.height - lines.length - 8);
    const editor = renderEditor(this.buffer, style, width, maxRows, placeholder);
    const offset = lines.length;
    lines.push(...editor.lines);
    lines.push(...this.menu.view(style, width));
    const hint = this.hint && this.hint.until > Date.now() ? this.hint.text : undefined;
    lines.push(statusLine({ cwd: this.kernel.cwd, model: this.model, mode: this.runner.session.mode, hint }, style, width));
    return { lines, cursor: { row: offset + editor.cursor.row, col: editor.cursor.col } };
  }
}

