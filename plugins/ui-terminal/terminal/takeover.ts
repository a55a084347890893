import { KeyDecoder, type Key } from './keys.js';
import { captureStderr } from './stderr-capture.js';

const ESC_WAIT_MS = 30;
const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

/** What the UI does with what the terminal sends. */
export interface TakeoverHandlers {
  keys(keys: Key[]): void;
  resize(): void;
  /** SIGTERM or SIGHUP: leave as after an interrupt. */
  terminate(): void;
  /** A line something wrote to stderr while the UI owns the screen. */
  stderrLine(line: string): void;
}

/**
 * The terminal in the UI's hands: raw keys decoded (a lone Esc is told from an escape sequence by a
 * short wait), bracketed paste, resizes, termination signals and stray stderr output; `release`
 * stops listening and `restore` gives the terminal back as it was.
 */
export class TerminalTakeover {
  private readonly decoder = new KeyDecoder();
  private escTimer: NodeJS.Timeout | undefined;
  private releaseStderr: () => void = () => {};

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WriteStream,
    private readonly handlers: TakeoverHandlers,
  ) {}

  start(): void {
    const { input, output } = this;
    input.setRawMode?.(true);
    input.setEncoding('utf8');
    input.on('data', this.onData);
    input.resume();
    output.on('resize', this.handlers.resize);
    process.on('SIGTERM', this.handlers.terminate);
    process.on('SIGHUP', this.handlers.terminate);
    output.write(BRACKETED_PASTE_ON);
    this.releaseStderr = captureStderr(process.stderr, this.handlers.stderrLine);
  }

  /** Stops listening (keys, resizes, signals, stderr); the screen can still be written. */
  release(): void {
    this.input.off('data', this.onData);
    this.output.off('resize', this.handlers.resize);
    process.off('SIGTERM', this.handlers.terminate);
    process.off('SIGHUP', this.handlers.terminate);
    if (this.escTimer) clearTimeout(this.escTimer);
    this.releaseStderr();
  }

  /** The terminal as it was: no bracketed paste, cooked mode, input paused. */
  restore(): void {
    this.output.write(BRACKETED_PASTE_OFF);
    this.input.setRawMode?.(false);
    this.input.pause();
  }

  private readonly onData = (chunk: string) => {
    if (this.escTimer) clearTimeout(this.escTimer);
    this.handlers.keys(this.decoder.push(chunk));
    if (this.decoder.pending) this.escTimer = setTimeout(() => this.handlers.keys(this.decoder.flush()), ESC_WAIT_MS);
  };
}
